/**
 * Features beyond the data-set core (sessions, models, time series) register themselves with
 * the server here; importing this module once wires them all.
 */
export {};
