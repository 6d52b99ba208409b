// Backoff: the delays between restarts of a daemon that keeps exiting:
// initialMs, then doubling up to maxMs. A daemon that ran for at least
// stableMs before it exited is considered healthy again (the count restarts).

export interface BackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly factor: number;
  readonly stableMs: number;
}

export const defaultBackoff: BackoffOptions = { initialMs: 500, maxMs: 30_000, factor: 2, stableMs: 60_000 };

export class Backoff {
  private failures = 0;

  constructor(private readonly options: BackoffOptions = defaultBackoff) {}

  /** Consecutive failures recorded so far. */
  get attempts(): number {
    return this.failures;
  }

  /** Records an exit after `ranMs` of life and returns the delay before the next start. */
  failure(ranMs: number): number {
    if (ranMs >= this.options.stableMs) this.failures = 0;
    const delay = Math.min(this.options.maxMs, this.options.initialMs * this.options.factor ** this.failures);
    this.failures++;
    return delay;
  }

  reset(): void {
    this.failures = 0;
  }
}
