/**
 * Whether an error means the database connection went away (server restarted or shutting down,
 * connection refused, reset or cut, a coordination query that got no answer in time) rather than
 * that the statement itself was wrong. Work that fails this way did not fail: it is given back
 * and run again once the database answers, never recorded as failed.
 */
export function isConnectionLoss(e: unknown): boolean {
  for (let err = e, depth = 0; err && typeof err === 'object' && depth < 5; err = (err as { cause?: unknown }).cause, depth++) {
    const { code, message } = err as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && LOST_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTCONN', 'ECONNABORTED']);
/** admin_shutdown, crash_shutdown, cannot_connect_now (starting up / shutting down), too_many_connections. */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What node-postgres says, without a code, when a connection ends under it. */
const LOST_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Query read timeout',
  'timeout exceeded when trying to connect',
];
