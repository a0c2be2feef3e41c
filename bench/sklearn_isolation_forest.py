"""scikit-learn IsolationForest on an ODDS table, fitted on all rows and scoring all rows, seeds 0..S-1:
the ROC-AUC of -score_samples (mean and per-fit sd) for each tree count asked for, and the share of rows
contamination='auto' flags with the default 100 trees.
usage: python sklearn_isolation_forest.py table.csv SEEDS TREES[,TREES...]"""
import sys, json
import numpy as np, pandas as pd
from sklearn.ensemble import IsolationForest
from sklearn.metrics import roc_auc_score

df = pd.read_csv(sys.argv[1])
y = df['is_anomaly'].to_numpy()
X = df.drop(columns=['is_anomaly']).to_numpy(dtype=float)
seeds = range(int(sys.argv[2]))
out = {'rocAuc': {}}
for trees in [int(t) for t in sys.argv[3].split(',')]:
    aucs = [roc_auc_score(y, -IsolationForest(n_estimators=trees, random_state=s).fit(X).score_samples(X)) for s in seeds]
    out['rocAuc'][str(trees)] = {'mean': float(np.mean(aucs)), 'sd': float(np.std(aucs, ddof=1))}
out['flagged'] = float(np.mean([np.mean(IsolationForest(random_state=s).fit(X).predict(X) == -1) for s in seeds]))
print(json.dumps(out))
