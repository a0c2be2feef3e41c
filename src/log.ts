import { pino, type Logger } from 'pino';

/**
 * The log of work done outside an HTTP request (sessions, imports, the outbox in `sibyl worker`):
 * JSON lines like the API's, with the same censoring of secrets.
 */
export function processLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({ level, base: { pid: process.pid, ...bindings }, redact: { paths: ['apiKey', 'key', 'password', '*.apiKey', '*.key', '*.password', 'secretAccessKey', 'accessKeyId', 'sessionToken', 'connectionString', '*.secretAccessKey', '*.accessKeyId', '*.sessionToken', '*.connectionString'], censor: '[redacted]' } });
}
