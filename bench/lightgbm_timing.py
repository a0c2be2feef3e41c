"""LightGBM's fit time at the reference settings, one thread, on the protocol folds (bench:tabular).

usage: python lightgbm_timing.py data.csv target '["dropped"]' folds.csv classification|regression
prints one JSON line: {"fitSeconds": mean over the 5 folds}.
"""
import sys, json, time
import lightgbm as lgb
from protocol_table import LIGHTGBM_SETTINGS, fold_frames, load

X, y, fold, task = load(sys.argv)
times = []
for k in range(5):
    tr = fold != k
    Xtr, _ = fold_frames(X, tr, fold == k)
    model = lgb.LGBMRegressor(**LIGHTGBM_SETTINGS) if task == 'regression' else lgb.LGBMClassifier(**LIGHTGBM_SETTINGS)
    ytr = y[tr].astype(float) if task == 'regression' else y[tr]
    t0 = time.perf_counter()
    model.fit(Xtr, ytr)
    times.append(time.perf_counter() - t0)
print(json.dumps({'fitSeconds': sum(times) / len(times)}))
