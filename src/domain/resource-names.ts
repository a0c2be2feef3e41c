/** The longest name of a data set, view or session, and of an impact session's event. */
export const MAX_NAME_LENGTH = 200;

/**
 * The rule for the names of data sets and views, which are a path segment of their URL
 * (`/v1/data/<name>`, `/v1/views/<name>`): what would make a name unusable, or undefined.
 * `.` and `..` are resolved away by every client's URL handling (WHATWG URL, curl, requests:
 * `/v1/data/%2E%2E` becomes `/v1`), so a data set of that name could be made but never reached.
 */
export function nameProblem(name: string, what: string): string | undefined {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return `a ${what} name has 1 to ${MAX_NAME_LENGTH} characters`;
  if (/[\u0000-\u001f\u007f/\\]/.test(name)) return `a ${what} name cannot contain control characters or slashes`;
  if (name === '.' || name === '..') return `a ${what} name cannot be '.' or '..': clients resolve them away in a URL, so it could never be reached`;
  return undefined;
}

/**
 * The rule for names given in a request body (a session's `name`, an impact's `eventName`): one line
 * of 1 to 200 characters, as a data set's name, so lists and the dashboard can show them whole. Not a
 * path segment, so slashes and dots are fine. What is wrong with `text`, or undefined.
 */
export function labelProblem(text: string, field: string): string | undefined {
  if (text.length > MAX_NAME_LENGTH) return `${field} has at most ${MAX_NAME_LENGTH} characters; this one has ${text.length.toLocaleString('en-US')}: shorten it`;
  if (/[\u0000-\u001f\u007f]/.test(text)) return `${field} is one line of text: it cannot contain line breaks, tabs or other control characters`;
  return undefined;
}
