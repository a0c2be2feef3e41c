/**
 * Gradient histograms: per bin (sum grad, sum hess), interleaved as hist[2*slot], hist[2*slot+1], where
 * slot = binOffset[feature] + bin. Like LightGBM, no row counts are accumulated: a bin's count is
 * estimated as its hessian × (leaf rows / leaf hessian), exact whenever the hessian is constant.
 * Histograms are built and subtracted by the wasm kernels (training-memory.ts).
 */

export const HIST_STRIDE = 2;
