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
import numpy as np, lightgbm as lgb
from protocol_table import LIGHTGBM_SETTINGS as settings, fold_frames, load

X, y, fold, task = load(sys.argv)
levels = json.loads(sys.argv[6])

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

out = {}
for k in range(5):
    tr, te = fold != k, fold == k
    Xtr, Xte = fold_frames(X, tr, te)
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
