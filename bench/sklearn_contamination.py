"""scikit-learn IsolationForest(contamination='auto') on an ODDS table: share of rows flagged
(fit and predict on all rows), mean over seeds 0..4. usage: python sklearn_contamination.py table.csv"""
import sys, json
import numpy as np, pandas as pd
from sklearn.ensemble import IsolationForest

df = pd.read_csv(sys.argv[1])
X = df.drop(columns=['is_anomaly']).to_numpy(dtype=float)
shares = [float(np.mean(IsolationForest(random_state=s).fit(X).predict(X) == -1)) for s in range(5)]
print(json.dumps({'flagged': sum(shares) / len(shares)}))
