/**
 * The request was not made because of a security rule: a scheme other than http/https, or a
 * non-public address not covered by SIBYL_ALLOW_PRIVATE_HOSTS. The client's input is at fault.
 */
export class OutboundRefused extends Error {
  override readonly name = 'OutboundRefused';
  /** What a client may be told: `message` may name what a host resolves to, which is for the operator's log only. */
  readonly publicMessage: string;

  constructor(message: string, publicMessage = message) {
    super(message);
    this.publicMessage = publicMessage;
  }
}

/**
 * The request was made and failed: HTTP status >= 400 (`status` set), timeout, body too large,
 * too many redirects, undecodable gzip or a network error.
 */
export class OutboundFailed extends Error {
  override readonly name = 'OutboundFailed';
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.status = options.status;
  }
}

/** Network and stream errors become OutboundFailed; errors that already are outbound errors stay as they are. */
export function asOutboundError(err: unknown, context: string): OutboundRefused | OutboundFailed {
  if (err instanceof OutboundRefused || err instanceof OutboundFailed) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return new OutboundFailed(`${context}: ${detail}`, { cause: err });
}
