import type * as vscode from 'vscode';

/** The names of T's methods. */
type MethodKey<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];

/**
 * Stands between a service and one of its collaborators: every call goes to the real object,
 * except the methods a test intercepts for a while. The test factory builds it into the
 * services, so a test observes or answers in the user's place without replacing a method on a
 * live object, and what it intercepts ends when it says so, even if the test fails.
 */
export class Interceptor<T extends object> {
  private real: T | undefined;
  private readonly overrides = new Map<PropertyKey, unknown>();

  /** The stand-in the services get in place of `real`. */
  wrap(real: T): T {
    this.real = real;
    return new Proxy(real, {
      get: (target, key) => {
        if (this.overrides.has(key)) return this.overrides.get(key);
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /**
   * Until the returned disposable is disposed, calls of `method` go to what `replace` makes of the
   * real method (bound to the real object): observe and pass on, or answer in its place.
   */
  intercept<K extends MethodKey<T>>(method: K, replace: (real: T[K]) => T[K]): vscode.Disposable {
    const real = this.real;
    if (!real) throw new Error(`cannot intercept ${String(method)}: the services were not built with this interceptor`);
    // A second interception would silently lose the first when either ends: say so instead.
    if (this.overrides.has(method)) throw new Error(`${String(method)} is already intercepted: dispose the earlier interception first`);
    const original = (real[method] as (...args: unknown[]) => unknown).bind(real) as T[K];
    this.overrides.set(method, replace(original));
    return { dispose: () => void this.overrides.delete(method) };
  }
}
