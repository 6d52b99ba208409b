// Listeners: the extension's own typed events (for classes that do not
// depend on the `vscode` module). `event` has the shape of vscode.Event, so
// glue code can subscribe the same way to both.

export interface Disposable {
  dispose(): void;
}

export type Listener<T> = (value: T) => void;

export class Listeners<T> {
  private readonly listeners = new Set<Listener<T>>();

  /** Subscribes; the returned disposable unsubscribes. */
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  /** Calls each listener; one that throws does not stop the others. */
  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        console.error('comP: a listener failed:', error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
