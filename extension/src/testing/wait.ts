// wait: polling helpers for tests that watch processes and files.

/** Resolves once `condition()` holds; rejects after `timeoutMs` with `what` in the message. */
export function until(condition: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const poll = (): void => {
      let holds = false;
      try {
        holds = condition();
      } catch {
        holds = false;
      }
      if (holds) resolve();
      else if (Date.now() - started > timeoutMs) reject(new Error(`${what} not met within ${timeoutMs} ms`));
      else setTimeout(poll, 10);
    };
    poll();
  });
}

/** Whether a process of that id exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
