/**
 * Where a long column name may wrap: after an underscore, dot, hyphen or slash, and before a capital
 * that starts a word (`customerLifetime|Value`), so `customerLifetimeValueEstimatedInEuros` wraps as
 * `customerLifetimeValue|EstimatedInEuros`, not as `customerLifetimeValueEstima|tedInEuros`.
 */
export function nameParts(name: string): string[] {
  return name.split(/(?<=[_./-])|(?<=[a-z0-9])(?=[A-Z])/).filter((p) => p !== '');
}
