"""A protocol table (PROTOCOL.md section 1) as the LightGBM reference scripts read it.

Rows without a target are dropped with their fold; columns whose every non-empty cell is a number are
numeric, the others categorical with their levels taken from the training rows of each fold.
"""
import json
import numpy as np, pandas as pd

# LightGBM at the reference settings (reference/tabular.csv), one thread.
LIGHTGBM_SETTINGS = dict(n_estimators=100, num_leaves=31, learning_rate=0.1, random_state=0, n_jobs=1, verbose=-1)


def load(argv):
    """(X, y, fold, task) from argv: data.csv target '["dropped"]' folds.csv classification|regression."""
    path, target, dropped, folds_path, task = argv[1], argv[2], json.loads(argv[3]), argv[4], argv[5]
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
    return X, y, fold, task


def fold_frames(X, tr, te):
    """Training and test rows of one fold, categorical columns with the training rows' levels."""
    Xtr, Xte = X[tr].copy(), X[te].copy()
    for c in X.columns:
        if not pd.api.types.is_numeric_dtype(Xtr[c]):
            cats = sorted(Xtr[c].dropna().unique())
            Xtr[c] = pd.Categorical(Xtr[c], categories=cats)
            Xte[c] = pd.Categorical(Xte[c], categories=cats)
    return Xtr, Xte
