/**
 * Which of an API error's errorDetails entries are worth showing. For some errors the API lists the
 * offending values there (the e-mail address that is taken, two dates in the wrong order) and puts the
 * reason in the top-level message; shown under a field, such an entry reads as if it were the reason.
 */

/**
 * Whether an entry says why a value is wrong rather than repeating it: a reason is words, a value
 * (an address, a date, a number) is one token, and an entry equal to what was sent is an echo.
 */
export function isReason(entry: string, sent?: unknown): boolean {
  const text = entry.trim();
  if (sent !== undefined && sent !== null && text === String(sent).trim()) return false;
  return /\s/.test(text);
}

/** The reasons among `errorDetails[field]`, given the request body that was sent. */
export function fieldReasons(details: Record<string, unknown> | undefined, field: string, sent?: Record<string, unknown>): string[] {
  const entries = details?.[field];
  if (!Array.isArray(entries)) return [];
  return entries.map(String).filter((e) => isReason(e, sent?.[field]));
}
