"""
Exports the yardstick sets (issue 10, bench/yardstick-sets.json) from the installed Debian R data
packages into a folder laid out like the shared benchmark data (PROTOCOL.md §1), so bench/tabular.ts's
loaders read it unchanged: tabular_catalog.csv, classification/, regression/, folds/<task>/.

Per set: the R object as CSV (factors as their labels, NA as empty), listed columns dropped (identifiers,
copies of the target, times that give the outcome away), rows with a missing target removed, classes
with fewer than `minClassRows` rows removed, then at most `maxRows` rows drawn without replacement
(numpy seed 0, original order kept). Folds as the protocol: StratifiedKFold / KFold(5, shuffle=True,
random_state=0). The half of each set is checked against the fixed hash of its name.

Usage: /work/venv/bin/python bench/export_r_sets.py [out_dir (default bench/.data/yardstick)]
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd
from sklearn.model_selection import KFold, StratifiedKFold

HERE = os.path.dirname(os.path.abspath(__file__))

R_DUMP = r"""
args <- commandArgs(trailingOnly = TRUE)
pkg <- args[1]; item <- args[2]; obj <- args[3]; out <- args[4]
e <- new.env()
data(list = item, package = pkg, envir = e)
d <- as.data.frame(get(obj, envir = e))
for (n in names(d)) if (is.factor(d[[n]]) || is.logical(d[[n]])) d[[n]] <- as.character(d[[n]])
write.csv(d, out, row.names = FALSE, na = "")
cat(as.character(packageVersion(pkg)), "\n")
"""


def half_of(name: str) -> str:
    return "tuning" if hashlib.sha256(name.encode()).digest()[0] % 2 == 0 else "confirmation"


def main() -> None:
    out_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, ".data", "yardstick"))
    spec = json.load(open(os.path.join(HERE, "yardstick-sets.json")))
    max_rows, min_class = spec["maxRows"], spec["minClassRows"]
    for sub in ("classification", "regression", "folds/classification", "folds/regression"):
        os.makedirs(os.path.join(out_dir, sub), exist_ok=True)
    catalog = []
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "dump.R")
        open(script, "w").write(R_DUMP)
        for s in spec["sets"]:
            name, task, target = s["name"], s["task"], s["target"]
            if s["half"] != half_of(name):
                raise SystemExit(f"{name}: half {s['half']} does not match the hash of its name ({half_of(name)})")
            raw = os.path.join(tmp, f"{name}.csv")
            version = subprocess.run(
                ["Rscript", script, s["package"], s["data"], s.get("object", s["data"]), raw],
                check=True, capture_output=True, text=True,
            ).stdout.strip()
            df = pd.read_csv(raw, dtype=str, keep_default_na=False)
            original_rows = len(df)
            if "filter" in s:
                df = df[df[s["filter"]["column"]] == s["filter"]["equals"]]
            df = df.drop(columns=s["drop"])
            df = df[df[target] != ""]
            if task == "classification":
                counts = df[target].value_counts()
                df = df[df[target].isin(counts[counts >= min_class].index)]
            else:
                df = df[pd.to_numeric(df[target], errors="coerce").notna()]
            if len(df) > max_rows:
                keep = np.sort(np.random.default_rng(0).choice(len(df), size=max_rows, replace=False))
                df = df.iloc[keep]
            df = df.reset_index(drop=True)
            df.to_csv(os.path.join(out_dir, task, f"{name}.csv"), index=False)
            if task == "classification":
                splits = StratifiedKFold(n_splits=5, shuffle=True, random_state=0).split(df, df[target])
            else:
                splits = KFold(n_splits=5, shuffle=True, random_state=0).split(df)
            fold = np.zeros(len(df), dtype=int)
            for k, (_, test) in enumerate(splits):
                fold[test] = k
            pd.DataFrame({"fold": fold}).to_csv(os.path.join(out_dir, "folds", task, f"{name}.csv"), index=False)
            label = task
            if task == "classification":
                n_classes = df[target].nunique()
                label = "classification (binary)" if n_classes == 2 else f"classification (multiclass, {n_classes})"
            catalog.append({
                "path": f"yardstick/{task}/{name}.csv", "task": label,
                "source": f"Debian r-cran-{s['package'].lower()} (R pkg {s['package']} {version})",
                "original_name": s.get("object", s["data"]), "rows": len(df), "cols": df.shape[1], "target": target,
                "rows_with_missing": int((df == "").any(axis=1).sum()), "licence": "see the Debian package's copyright file",
                "notes": f"half={s['half']}; dropped {','.join(s['drop']) or 'nothing'}; {original_rows} rows in R",
                "bytes": os.path.getsize(os.path.join(out_dir, task, f"{name}.csv")),
            })
            print(f"{name:22} {task:14} {len(df):5} rows {df.shape[1] - 1:3} features  {s['half']}", flush=True)
    pd.DataFrame(catalog).to_csv(os.path.join(out_dir, "tabular_catalog.csv"), index=False)
    print(f"wrote {len(catalog)} sets to {out_dir}")


if __name__ == "__main__":
    main()
