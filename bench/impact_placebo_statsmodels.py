"""Reference for bench:impact-placebo: statsmodels UnobservedComponents (local level, plus a stochastic
seasonal when the pre-period covers two cycles) fitted by MLE on the pre-period, counterfactual paths
simulated from the end of the pre-period with the parameters held at their MLE (what CausalImpact ports
built on statsmodels do), with the window's control series as exog when it has them. Reads a JSON list of windows on stdin, writes one JSON result per window.

    /work/venv/bin/python bench/impact_placebo_statsmodels.py < windows.json > results.json
"""
import json
import sys
import warnings

import numpy as np
from statsmodels.tsa.statespace.structural import UnobservedComponents

REPETITIONS = 2000


def analyse(job):
    y = np.asarray(job["y"], dtype=float)
    n_pre = job["preEnd"] + 1
    pre, post = y[:n_pre], y[n_pre:]
    period = job["period"]
    seasonal = period if period > 1 and n_pre >= 2 * period else None
    # Control series (bench --controls) enter as exog with MLE coefficients, held fixed in the paths.
    x = np.asarray(job["x"], dtype=float).T if job.get("x") else None
    model = UnobservedComponents(pre, level="llevel", seasonal=seasonal, stochastic_seasonal=True,
                                 exog=None if x is None else x[:n_pre], mle_regression=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = model.fit(disp=False)
        sims = res.simulate(nsimulations=len(post), repetitions=REPETITIONS, anchor="end",
                            exog=None if x is None else x[n_pre:],
                            rng=np.random.default_rng(job.get("seed", 0)))
    paths = np.asarray(sims).reshape(len(post), -1)  # horizon x repetitions
    sums = paths.sum(axis=0)
    observed = post.sum()
    absolute = observed - sums
    relative = absolute / sums
    above = np.sum(sums >= observed)
    below = np.sum(sums <= observed)
    p = min(1.0, 2 * min((1 + above) / (len(sums) + 1), (1 + below) / (len(sums) + 1)))
    return {
        "id": job["id"],
        "p": float(p),
        "absLo": float(np.quantile(absolute, 0.025)),
        "absHi": float(np.quantile(absolute, 0.975)),
        "relLo": float(np.quantile(relative, 0.025)),
        "relHi": float(np.quantile(relative, 0.975)),
    }


def main():
    if len(sys.argv) > 1:
        with open(sys.argv[1]) as f:
            jobs = json.load(f)
    else:
        jobs = json.load(sys.stdin)
    out = []
    for job in jobs:
        try:
            out.append(analyse(job))
        except Exception as e:  # a failed fit is reported, not hidden
            out.append({"id": job["id"], "error": str(e)})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
