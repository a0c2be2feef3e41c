#!/usr/bin/env python3
"""Cuts test/fixtures/ from the shared benchmark data and the conformance corpus.

Usage (from the repository root):
    python3 bench/make_fixtures.py [--benchdata DIR] [--conformance DIR]
Defaults: $SIBYL_BENCHDATA or ../shared/benchdata, and ../shared/conformance/nexosis-js.

Standard library only. Data lines are copied byte for byte (header first, then the chosen lines in
their original order); subsamples use random.Random(seed).sample, so a rerun writes the same files.
test/fixtures/README.md says what each file is, where it comes from and how it was cut.
"""
import argparse
import csv
import io
import os
import random
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, 'test', 'fixtures')

# Whole files: small public tables the tests train, profile or ingest as they are.
WHOLE = [
    'classification/iris.csv', 'classification/wine.csv', 'classification/breast_cancer_wdbc.csv',
    'classification/ionosphere.csv', 'classification/glass.csv', 'classification/vehicle.csv',
    'classification/pima_diabetes.csv', 'classification/titanic.csv', 'classification/credit_data.csv',
    'classification/house_votes84.csv',
    'regression/diabetes.csv', 'regression/boston_housing.csv', 'regression/concrete.csv',
    'regression/auto_mpg.csv', 'regression/airquality.csv', 'regression/servo.csv',
    'anomaly/breastw_odds.csv', 'anomaly/glass_odds.csv', 'anomaly/ionosphere_odds.csv', 'anomaly/pima_odds.csv',
    'anomaly/nab/realKnownCause/nyc_taxi.csv',
    'forecast/INDEX.csv', 'forecast/fpp2/a10.csv', 'forecast/fpp2/ausbeer.csv', 'forecast/fpp2/hyndsight.csv',
    'forecast/fpp2/elecdaily_Demand.csv', 'forecast/fpp2/elecdaily_WorkDay.csv', 'forecast/fpp2/elecdaily_Temperature.csv',
    'impact/cases.csv', 'impact/seatbelts_uk.csv',
    'impact/semisynthetic/airpassengers_placebo.csv', 'impact/semisynthetic/airpassengers_plus15.csv',
    'impact/semisynthetic/nottem_placebo.csv', 'impact/semisynthetic/nottem_plus5.csv',
    'reference/impact.csv',
]
RELATIVE_PATHS = ['forecast/INDEX.csv', 'impact/cases.csv']
# Tables with their protocol folds (folds/<kind>/<name>.csv, one fold number per data row).
TABULAR = [p for p in WHOLE if p.startswith(('classification/', 'regression/'))]
# Row subsamples (size, seed). Tables keep their protocol folds; shuttle's IsolationForest reference
# is recomputed on its subsample (reference_isolation_forest below).
SUBSAMPLES = {
    'classification/satellite.csv': (1000, 1),
    'classification/letter_recognition.csv': (3000, 2),
    'classification/spambase.csv': (800, 3),
    'anomaly/shuttle_odds.csv': (5000, 4),
}
# Stacked series: the first N series of a collection (train and test files cut alike).
FIRST_SERIES = {'forecast/m3/m3_quarterly': 120, 'forecast/m3/m3_yearly': 40}
# Single series whose R forecast reference rows the tests read.
REFERENCE_SERIES = ['fpp2/a10', 'fpp2/ausbeer', 'fpp2/elecdaily_Demand']


def lines_of(path):
    with open(path, 'rb') as f:
        return f.read().splitlines(keepends=True)


def write(rel, lines):
    path = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.writelines(lines)


def field(line, j):
    return next(csv.reader(io.StringIO(line.decode('utf-8'))))[j]


def reference_isolation_forest(path):
    """A reference/anomaly.csv row: IsolationForest() defaults, random_state 0..4, fit and score all rows."""
    import numpy as np
    import pandas as pd
    from sklearn.ensemble import IsolationForest
    from sklearn.metrics import average_precision_score, roc_auc_score
    table = pd.read_csv(path)
    y = table.pop('is_anomaly').to_numpy()
    x = table.to_numpy(dtype=float)
    aucs, aps = [], []
    for seed in range(5):
        score = -IsolationForest(random_state=seed).fit(x).score_samples(x)
        aucs.append(roc_auc_score(y, score))
        aps.append(average_precision_score(y, score))
    name = os.path.basename(path)[:-4]
    values = [name, len(y), x.shape[1], int(y.sum()), round(y.mean(), 6), 'isolation_forest',
              round(np.mean(aucs), 6), round(np.mean(aps), 6), round(np.std(aucs, ddof=1), 6),
              round(np.std(aps, ddof=1), 6), 5, '']  # no timing: a rerun writes the same file
    return (','.join(map(str, values)) + '\n').encode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--benchdata', default=os.environ.get('SIBYL_BENCHDATA') or os.path.join(ROOT, '..', 'shared', 'benchdata'))
    ap.add_argument('--conformance', default=os.path.join(ROOT, '..', 'shared', 'conformance', 'nexosis-js'))
    args = ap.parse_args()
    src = lambda rel: os.path.join(args.benchdata, rel)

    for rel in WHOLE:
        write(rel, lines_of(src(rel)))
    # The two index files name data files by their place in the shared tree; here paths are relative
    # to this folder (as in tabular_catalog.csv), the only change to their lines.
    for rel in RELATIVE_PATHS:
        write(rel, [line.replace(b'shared/benchdata/', b'') for line in lines_of(src(rel))])
    for rel in TABULAR:
        kind, name = rel.split('/')
        write(f'folds/{kind}/{name}', lines_of(src(f'folds/{kind}/{name}')))

    for rel, (size, seed) in SUBSAMPLES.items():
        kind, name = rel.split('/')
        data = lines_of(src(rel))
        rows = sorted(random.Random(seed).sample(range(1, len(data)), size))
        write(rel, [data[0]] + [data[i] for i in rows])
        if kind != 'anomaly':
            folds = lines_of(src(f'folds/{kind}/{name}'))
            assert len(data) == len(folds), rel
            write(f'folds/{kind}/{name}', [folds[0]] + [folds[i] for i in rows])

    # scikit-learn's IsolationForest on the tables here: the shared rows for whole tables, recomputed
    # for subsamples under the same protocol (PROTOCOL.md §2).
    anomaly = lines_of(src('reference/anomaly.csv'))
    whole = {rel.split('/')[1][:-4] for rel in WHOLE if rel.count('/') == 1 and rel.startswith('anomaly/')}
    rows = [l for l in anomaly[1:] if field(l, 0) in whole]
    for rel in SUBSAMPLES:
        if rel.startswith('anomaly/'):
            rows.append(reference_isolation_forest(os.path.join(OUT, rel)))
    write('reference/anomaly.csv', [anomaly[0]] + rows)

    for stem, count in FIRST_SERIES.items():
        train = lines_of(src(f'{stem}_train.csv'))
        ids = []
        for line in train[1:]:
            sid = field(line, 0)
            if sid not in ids:
                ids.append(sid)
        keep = set(ids[:count])
        for part in ('train', 'test'):
            lines = lines_of(src(f'{stem}_{part}.csv'))
            write(f'{stem}_{part}.csv', [lines[0]] + [l for l in lines[1:] if field(l, 0) in keep])
        if stem.endswith('quarterly'):
            quarterly = keep

    points = lines_of(src('reference/forecast_points.csv'))
    write('reference/forecast_points.csv', [points[0]] + [l for l in points[1:] if field(l, 0) == 'm3' and field(l, 1) in quarterly])
    series = lines_of(src('reference/forecast_series.csv'))
    write('reference/forecast_series.csv', [series[0]] + [l for l in series[1:] if field(l, 0) == 'single' and field(l, 1) in REFERENCE_SERIES])

    # Reference results of fold 0 (the fold the quality tests use) for the tables copied whole.
    names = {rel.split('/')[1][:-4] for rel in TABULAR}
    folds = lines_of(src('reference/tabular_folds.csv'))
    write('reference/tabular_folds.csv', [folds[0]] + [l for l in folds[1:] if field(l, 0) in names and field(l, 3) == '0'])

    # The catalogue rows of the tables here, with paths relative to test/fixtures/ (and the sizes of the subsamples).
    with open(src('tabular_catalog.csv'), newline='', encoding='utf-8') as f:
        header, *entries = list(csv.reader(f))
    col = {h: j for j, h in enumerate(header)}
    kept = []
    for entry in entries:
        rel = entry[col['path']].split('benchdata/', 1)[1]
        if rel not in TABULAR and rel not in SUBSAMPLES:
            continue
        entry[col['path']] = rel
        if rel in SUBSAMPLES:
            size, seed = SUBSAMPLES[rel]
            entry[col['rows']] = str(size)
            entry[col['bytes']] = str(os.path.getsize(os.path.join(OUT, rel)))
            entry[col['notes']] += f'. Fixture: {size} rows drawn with random.Random({seed}).sample, original order and folds kept'
        kept.append(entry)
    buf = io.StringIO()
    csv.writer(buf, lineterminator='\n').writerows([header] + kept)
    write('tabular_catalog.csv', [buf.getvalue().encode('utf-8')])

    cassettes = os.path.join(OUT, 'conformance', 'nexosis-js', 'cassettes')
    shutil.rmtree(cassettes, ignore_errors=True)
    shutil.copytree(os.path.join(args.conformance, 'cassettes'), cassettes)
    for name in os.listdir(cassettes):
        os.chmod(os.path.join(cassettes, name), 0o644)


if __name__ == '__main__':
    main()
