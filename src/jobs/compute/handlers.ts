/**
 * Pure computations that run in worker threads, by name. Each module exports `compute(input)`;
 * inputs and outputs are structured-cloneable (plain objects, arrays, typed arrays).
 */
export type ComputeHandler = (input: unknown) => unknown | Promise<unknown>;

export const COMPUTE_HANDLERS = {
  model: async (): Promise<ComputeHandler> => (await import('./model-compute.js')).compute as ComputeHandler,
  forecast: async (): Promise<ComputeHandler> => (await import('./forecast-compute.js')).compute as ComputeHandler,
  impact: async (): Promise<ComputeHandler> => (await import('./impact-compute.js')).compute as ComputeHandler,
};
