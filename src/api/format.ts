/** Resource dates as the original service wrote them: ISO 8601 with an explicit +00:00 offset. */
export function isoOffset(d: Date | string | number): string {
  return new Date(d).toISOString().replace('Z', '+00:00');
}
