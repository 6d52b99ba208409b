// cancellation: a VS Code CancellationToken as an AbortSignal, the form
// JsonRpcConnection takes (so that this layer needs no `vscode` import).

export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export function abortSignalOf(token: CancellationTokenLike | undefined): AbortSignal | undefined {
  if (!token) return undefined;
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
