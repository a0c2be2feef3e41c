import { pino, type Logger } from 'pino';

/**
 * The log of work done outside an HTTP request (sessions, imports, the outbox in `sibyl worker`):
 * JSON lines like the API's, with the same censoring of secrets.
 */
export type { Logger };

export function processLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({ level, base: { pid: process.pid, ...bindings }, redact: { paths: ['apiKey', 'key', 'password', '*.apiKey', '*.key', '*.password', 'secretAccessKey', 'accessKeyId', 'sessionToken', 'connectionString', '*.secretAccessKey', '*.accessKeyId', '*.sessionToken', '*.connectionString'], censor: '[redacted]' } });
}

/**
 * The log of a process's own start and stop lines (`Sibyl listening on …`, what SIGTERM does): at
 * info even when SIBYL_LOG_LEVEL is warn or error, since they are what a process manager or a person
 * waits for; nothing with `silent`.
 */
export function lifecycleLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return processLogger(level === 'silent' || level === 'debug' || level === 'trace' ? level : 'info', bindings);
}
