"""Reference uncertainty figures on the protocol folds (PROTOCOL.md section 1), LightGBM at the reference settings.

Classification: log loss, Brier score (binary: scikit-learn's brier_score_loss of class 1 in sorted
label order; multiclass: the sum over classes) and top-label expected calibration error (15 equal
bins) of LGBMClassifier's probabilities on each test fold. Regression: a LightGBM quantile pair
(alpha = (1-L)/2 and (1+L)/2) per level L; coverage, mean width and mean interval score
(Gneiting & Raftery 2007: width + 2/(1-L) x the miss) on each test fold.

usage: python lightgbm_uncertainty.py data.csv target '["dropped"]' folds.csv classification|regression '[0.8,0.95]'
prints one JSON line: per-fold means.
"""
import sys, json
import numpy as np, pandas as pd, lightgbm as lgb

path, target, dropped, folds_path, task, levels = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4], sys.argv[5], json.loads(sys.argv[6])
df = pd.read_csv(path, dtype=str, keep_default_na=False)
fold = pd.read_csv(folds_path)['fold'].to_numpy()
keep = (df[target] != '').to_numpy()
df = df[keep].reset_index(drop=True)
fold = fold[keep]
y = df[target]
X = df.drop(columns=[target] + dropped).replace('', np.nan)
for c in X.columns:
    num = pd.to_numeric(X[c], errors='coerce')
    if (num.isna() == X[c].isna()).all():
        X[c] = num.astype(float)

def ece(y_idx, proba, bins=15):
    conf = proba.max(axis=1)
    pred = proba.argmax(axis=1)
    b = np.minimum(bins - 1, np.floor(conf * bins).astype(int))
    total = 0.0
    for j in range(bins):
        m = b == j
        if m.any():
            total += m.sum() * abs(conf[m].mean() - (pred[m] == y_idx[m]).mean())
    return total / len(y_idx)

settings = dict(n_estimators=100, num_leaves=31, learning_rate=0.1, random_state=0, n_jobs=1, verbose=-1)
out = {}
for k in range(5):
    tr, te = fold != k, fold == k
    Xtr, Xte = X[tr].copy(), X[te].copy()
    for c in X.columns:
        if not pd.api.types.is_numeric_dtype(Xtr[c]):
            cats = sorted(Xtr[c].dropna().unique())
            Xtr[c] = pd.Categorical(Xtr[c], categories=cats)
            Xte[c] = pd.Categorical(Xte[c], categories=cats)
    res = {}
    if task == 'classification':
        classes = sorted(y.unique())
        ytr = y[tr].map({c: i for i, c in enumerate(classes)}).to_numpy()
        yte = y[te].map({c: i for i, c in enumerate(classes)}).to_numpy()
        model = lgb.LGBMClassifier(**settings).fit(Xtr, ytr)
        p = np.zeros((len(yte), len(classes)))
        p[:, model.classes_] = model.predict_proba(Xte)
        onehot = np.eye(len(classes))[yte]
        res['logLoss'] = float(-np.mean(np.log(np.clip(p[np.arange(len(yte)), yte], 1e-15, 1))))
        res['brierScore'] = float(np.mean((p[:, 1] - yte) ** 2)) if len(classes) == 2 else float(np.mean(np.sum((p - onehot) ** 2, axis=1)))
        res['ece'] = float(ece(yte, p))
    else:
        ytr, yte = y[tr].astype(float).to_numpy(), y[te].astype(float).to_numpy()
        for L in levels:
            lo = lgb.LGBMRegressor(objective='quantile', alpha=(1 - L) / 2, **settings).fit(Xtr, ytr).predict(Xte)
            hi = lgb.LGBMRegressor(objective='quantile', alpha=(1 + L) / 2, **settings).fit(Xtr, ytr).predict(Xte)
            lo, hi = np.minimum(lo, hi), np.maximum(lo, hi)
            res[f'coverage{L}'] = float(np.mean((yte >= lo) & (yte <= hi)))
            res[f'width{L}'] = float(np.mean(hi - lo))
            a = 1 - L
            res[f'score{L}'] = float(np.mean(hi - lo + (2 / a) * (np.maximum(0, lo - yte) + np.maximum(0, yte - hi))))
    for key, v in res.items():
        out[key] = out.get(key, 0.0) + v / 5
print(json.dumps(out))
