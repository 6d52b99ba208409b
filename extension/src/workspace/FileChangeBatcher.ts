// FileChangeBatcher: collects changed paths and hands them over in one batch
// once no change came for `delayMs` (or, under a steady stream of changes,
// at the latest `maxWaitMs` after the first one). Each path appears once in
// a batch, in the order first seen. Timers are injectable for tests.

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class FileChangeBatcher {
  private paths = new Set<string>();
  private timer: unknown;
  private firstAt: number | undefined;

  constructor(
    private readonly flush: (paths: string[]) => void,
    private readonly delayMs = 200,
    private readonly maxWaitMs = 2000,
    private readonly timers: Timers = realTimers,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.paths.size;
  }

  add(path: string): void {
    this.paths.add(path);
    const now = this.now();
    this.firstAt ??= now;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.delayMs, this.firstAt + this.maxWaitMs - now));
    this.timer = this.timers.setTimeout(() => this.flushNow(), wait);
  }

  /** Hands over what is collected now (nothing when empty). */
  flushNow(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.firstAt = undefined;
    if (this.paths.size === 0) return;
    const batch = [...this.paths];
    this.paths = new Set();
    this.flush(batch);
  }

  /** Drops what is collected and stops the timer. */
  dispose(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.paths.clear();
  }
}
