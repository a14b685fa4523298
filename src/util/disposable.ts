import type * as vscode from 'vscode';

/**
 * Base class for anything that owns other disposables. Everything registered through
 * `_register` is disposed, in reverse order, when this is; registering after disposal
 * disposes at once so a late listener can never leak.
 */
export abstract class Disposable implements vscode.Disposable {
  private readonly _disposables: { dispose(): unknown }[] = [];
  private _isDisposed = false;

  protected get isDisposed(): boolean {
    return this._isDisposed;
  }

  protected _register<T extends { dispose(): unknown }>(d: T): T {
    if (this._isDisposed) {
      d.dispose();
    } else {
      this._disposables.push(d);
    }
    return d;
  }

  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    for (const d of this._disposables.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // One failing disposer must not stop the rest from being released.
      }
    }
  }
}

/** Turns a cleanup function into a disposable. */
export function toDisposable(fn: () => void): vscode.Disposable {
  let done = false;
  return {
    dispose: () => {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}
