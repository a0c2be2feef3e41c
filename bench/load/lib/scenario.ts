/** What a bench:load scenario file exports (as `default`); run.ts finds every scenario file beside it. */
export interface LoadScenario {
  name: string;
  description: string;
  run(ctx: LoadContext): Promise<void>;
}

export type StoreKind = 'embedded' | 'postgres';

export interface LoadContext {
  /** Stores to measure: embedded always, PostgreSQL when it answers (or as chosen with --stores). */
  stores: StoreKind[];
  /** --rows N (scenarios say what they do with it; default 1,000,000). */
  rows: number;
  /** Command-line arguments after the scenario names, for scenario-specific options. */
  args: string[];
  log(line: string): void;
}
