"""
Reference results for the yardstick sets (issue 10), by the shared protocol's §1 settings: LightGBM
defaults (100 trees, 31 leaves, lr 0.1), scikit-learn HistGradientBoosting, RandomForest (300 trees),
Logistic regression / Ridge with median imputation + standardisation and one-hot categoricals; one
thread each, on the fixed folds written by bench/export_r_sets.py.
Writes <dir>/reference/tabular.csv (means over the 5 folds, same columns as the shared reference) and
<dir>/reference/tabular_folds.csv (one line per set, model and fold).

Usage: OMP_NUM_THREADS=1 /work/venv/bin/python bench/yardstick_reference.py [dir (default bench/.data/yardstick)] [--only a,b]
"""
import os
import sys
import time
import warnings

import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor, RandomForestClassifier, RandomForestRegressor
from sklearn.exceptions import ConvergenceWarning
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import accuracy_score, f1_score, log_loss, mean_absolute_error, mean_squared_error, roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

HERE = os.path.dirname(os.path.abspath(__file__))


def load(root, path, target):
    df = pd.read_csv(os.path.join(root, path), dtype=str, keep_default_na=False)
    y = df[target]
    X = df.drop(columns=[target]).replace("", np.nan)
    numeric, categorical = [], []
    for c in X.columns:
        num = pd.to_numeric(X[c], errors="coerce")
        if (num.isna() == X[c].isna()).all():
            X[c] = num.astype(float)
            numeric.append(c)
        else:
            categorical.append(c)
    return X, y, numeric, categorical


def ordinal(Xtr, Xte, categorical):
    """Codes of the training fold's sorted levels; missing and unseen → NaN."""
    Xtr, Xte = Xtr.copy(), Xte.copy()
    for c in categorical:
        levels = sorted(Xtr[c].dropna().unique())
        index = {v: i for i, v in enumerate(levels)}
        Xtr[c] = Xtr[c].map(index).astype(float)
        Xte[c] = Xte[c].map(index).astype(float)
    return Xtr, Xte


def models(task, numeric, categorical, Xtr):
    classify = task == "classification"
    def lightgbm(Xa, Xb):
        Xa, Xb = Xa.copy(), Xb.copy()
        for c in categorical:
            levels = sorted(Xa[c].dropna().unique())
            Xa[c] = pd.Categorical(Xa[c], categories=levels)
            Xb[c] = pd.Categorical(Xb[c], categories=levels)
        settings = dict(n_estimators=100, num_leaves=31, learning_rate=0.1, random_state=0, n_jobs=1, verbose=-1)
        return (lgb.LGBMClassifier if classify else lgb.LGBMRegressor)(**settings), Xa, Xb
    def hist_gbm(Xa, Xb):
        Xa, Xb = ordinal(Xa, Xb, categorical)
        declared = [c in categorical and Xtr[c].nunique() <= 255 for c in Xa.columns]
        cls = HistGradientBoostingClassifier if classify else HistGradientBoostingRegressor
        return cls(random_state=0, categorical_features=declared if any(declared) else None), Xa, Xb
    def random_forest(Xa, Xb):
        Xa, Xb = ordinal(Xa, Xb, categorical)
        cls = RandomForestClassifier if classify else RandomForestRegressor
        return cls(n_estimators=300, random_state=0, n_jobs=1), Xa, Xb
    def linear(Xa, Xb):
        parts = []
        if numeric:
            parts.append(("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), numeric))
        if categorical:
            Xa, Xb = Xa.copy(), Xb.copy()
            Xa[categorical] = Xa[categorical].fillna("(missing)")
            Xb[categorical] = Xb[categorical].fillna("(missing)")
            parts.append(("cat", OneHotEncoder(handle_unknown="ignore"), categorical))
        est = LogisticRegression(max_iter=2000) if classify else Ridge(alpha=1.0)
        return make_pipeline(ColumnTransformer(parts), est), Xa, Xb
    return {"lightgbm": lightgbm, "hist_gbm": hist_gbm, "random_forest": random_forest, "linear": linear}


def main():
    args = sys.argv[1:]
    only = None
    if "--only" in args:
        i = args.index("--only")
        only = set(args[i + 1].split(","))
        del args[i:i + 2]
    root = os.path.abspath(args[0] if args else os.path.join(HERE, ".data", "yardstick"))
    catalog = pd.read_csv(os.path.join(root, "tabular_catalog.csv"), dtype=str, keep_default_na=False)
    os.makedirs(os.path.join(root, "reference"), exist_ok=True)
    means, per_fold = [], []
    for _, entry in catalog.iterrows():
        task = "classification" if entry["task"].startswith("classification") else "regression"
        name = os.path.basename(entry["path"])[:-4]
        if only and name not in only:
            continue
        path = os.path.join(task, f"{name}.csv")
        X, y, numeric, categorical = load(root, path, entry["target"])
        fold = pd.read_csv(os.path.join(root, "folds", task, f"{name}.csv"))["fold"].to_numpy()
        classes = sorted(y.unique())
        counts = y.value_counts()
        # Minority class of the whole file; ties go to the label that sorts last (PROTOCOL.md §1).
        positive = max(classes, key=lambda c: (-counts[c], c)) if task == "classification" else ""
        for model_name, build in models(task, numeric, categorical, X).items():
            rows = []
            for k in range(5):
                tr, te = fold != k, fold == k
                est, Xa, Xb = build(X[tr], X[te])
                ytr = y[tr].to_numpy() if task == "classification" else y[tr].astype(float).to_numpy()
                t0, c0 = time.perf_counter(), time.process_time()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    warnings.simplefilter("ignore", UserWarning)
                    est.fit(Xa, ytr)
                fit_s, fit_cpu = time.perf_counter() - t0, time.process_time() - c0
                row = {"dataset": name, "task": task, "model": model_name, "fold": k, "fit_seconds": fit_s, "fit_cpu_seconds": fit_cpu}
                if task == "classification":
                    proba = np.zeros((te.sum(), len(classes)))
                    p = est.predict_proba(Xb)
                    for j, c in enumerate(est.classes_):
                        proba[:, classes.index(c)] = p[:, j]
                    yte = y[te].to_numpy()
                    pred = np.array(classes)[proba.argmax(axis=1)]
                    row["accuracy"] = accuracy_score(yte, pred)
                    row["macro_f1"] = f1_score(yte, pred, labels=classes, average="macro", zero_division=0)
                    if len(classes) == 2:
                        row["roc_auc"] = roc_auc_score(yte == positive, proba[:, classes.index(positive)])
                    else:
                        row["roc_auc"] = roc_auc_score(yte, proba, multi_class="ovr", average="macro", labels=classes)
                    row["log_loss"] = log_loss(yte, np.clip(proba, 1e-15, 1), labels=classes)
                else:
                    pred = est.predict(Xb)
                    yte = y[te].astype(float).to_numpy()
                    row["rmse"] = float(np.sqrt(mean_squared_error(yte, pred)))
                    row["mae"] = mean_absolute_error(yte, pred)
                    row["r2"] = 1 - ((yte - pred) ** 2).sum() / ((yte - yte.mean()) ** 2).sum()
                rows.append(row)
            per_fold += rows
            frame = pd.DataFrame(rows)
            mean = {"dataset": name, "task": task, "model": model_name, "n_rows": len(y),
                    "n_numeric": len(numeric), "n_categorical": len(categorical),
                    "n_classes": len(classes) if task == "classification" else "", "positive_class": positive}
            for col in ("accuracy", "macro_f1", "roc_auc", "log_loss", "rmse", "mae", "r2", "fit_seconds", "fit_cpu_seconds"):
                mean[col] = frame[col].mean() if col in frame else ""
            means.append(mean)
            metric = f"auc {mean['roc_auc']:.4f}" if task == "classification" else f"rmse {mean['rmse']:.4g}"
            print(f"{name:22} {model_name:14} {metric}", flush=True)
    suffix = "" if not only else ".partial"
    pd.DataFrame(means).to_csv(os.path.join(root, "reference", f"tabular{suffix}.csv"), index=False)
    pd.DataFrame(per_fold).to_csv(os.path.join(root, "reference", f"tabular_folds{suffix}.csv"), index=False)


if __name__ == "__main__":
    main()
