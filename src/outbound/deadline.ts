import type { ClientRequest } from 'node:http';
import { OutboundFailed } from './errors.js';

/**
 * One overall time limit for an outbound exchange, across redirects and the streamed body. On
 * expiry the request in flight is destroyed, which makes whatever is waiting on it fail; callers
 * then report `error` rather than the resulting "socket hang up".
 */
export class Deadline {
  readonly error: OutboundFailed;
  private current: ClientRequest | undefined;
  private readonly timer: NodeJS.Timeout;
  private expiredFlag = false;
  private readonly onExpiry: (() => void)[] = [];

  constructor(timeoutMs: number, what: string) {
    this.error = new OutboundFailed(`${what} timed out after ${timeoutMs} ms`);
    this.timer = setTimeout(() => {
      this.expiredFlag = true;
      this.current?.destroy(this.error);
      for (const f of this.onExpiry) f();
    }, timeoutMs);
  }

  get expired(): boolean {
    return this.expiredFlag;
  }

  /** Makes `request` the one to destroy on expiry. */
  track(request: ClientRequest): void {
    this.current = request;
    if (this.expiredFlag) request.destroy(this.error);
  }

  /** Runs `f` on expiry (e.g. aborts a cloud SDK's request, which we cannot destroy ourselves). */
  whenExpired(f: () => void): void {
    if (this.expiredFlag) f();
    else this.onExpiry.push(f);
  }

  /** Stops the timer and closes the connection of the request in flight, if still open. */
  finish(): void {
    clearTimeout(this.timer);
    this.current?.destroy();
  }
}
