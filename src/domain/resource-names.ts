/**
 * The rule for the names of data sets and views, which are a path segment of their URL
 * (`/v1/data/<name>`, `/v1/views/<name>`): what would make a name unusable, or undefined.
 * `.` and `..` are resolved away by every client's URL handling (WHATWG URL, curl, requests:
 * `/v1/data/%2E%2E` becomes `/v1`), so a data set of that name could be made but never reached.
 */
export function nameProblem(name: string, what: string): string | undefined {
  if (name.length === 0 || name.length > 200) return `a ${what} name has 1 to 200 characters`;
  if (/[\u0000-\u001f\u007f/\\]/.test(name)) return `a ${what} name cannot contain control characters or slashes`;
  if (name === '.' || name === '..') return `a ${what} name cannot be '.' or '..': clients resolve them away in a URL, so it could never be reached`;
  return undefined;
}
