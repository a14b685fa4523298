/**
 * One connect attempt's hold on a transport that may outlive the attempt.
 *
 * We speak 2025-11-25 first (eraChoice.ts). A server that speaks only 2026-07-28 refuses that
 * `initialize` with a JSON-RPC error and goes on running, so the modern attempt that follows can
 * use the same process (or HTTP connection) instead of starting the server a second time. The
 * SDK's client gets in the way twice: a failed connect closes whatever transport it used, and a
 * connect chains the handlers it finds already set on its transport. So each attempt gets a lease
 * of its own: the client sets its handlers on the lease, the lease forwards what the real
 * transport receives to the current lease only, and closing a lease during its attempt closes the
 * lease alone. Once an attempt connects, {@link TransportLease.commit} makes the lease's close the
 * transport's. No `vscode` import.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';

/** The real transport, started at most once, and which lease hears it. */
export class LeasedTransport {
  private current: TransportLease | undefined;
  private started = false;

  constructor(readonly inner: Transport) {}

  /** A lease for the next attempt; the previous one hears nothing more. */
  lease(): TransportLease {
    const lease = new TransportLease(this);
    this.current = lease;
    return lease;
  }

  /** Ends the real transport (no attempt connected, or the last one gave up). */
  close(): Promise<void> {
    return this.inner.close();
  }

  /** @internal */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const inner = this.inner;
    inner.onmessage = (message, extra) => this.current?.onmessage?.(message, extra);
    inner.onerror = (error) => this.current?.onerror?.(error);
    inner.onclose = () => this.current?.closed();
    await inner.start();
  }

  /** @internal */
  isCurrent(lease: TransportLease): boolean {
    return this.current === lease;
  }
}

export class TransportLease implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private committed = false;
  private ended = false;

  constructor(private readonly owner: LeasedTransport) {
    // The SDK tells a stdio transport from an HTTP one by these two fields (a probe timeout means
    // "legacy" on a pipe and "outage" over the network), so the lease shows them where the real one has them.
    const inner = owner.inner as Transport & { stderr?: unknown; pid?: unknown };
    if ('stderr' in inner && 'pid' in inner) {
      Object.defineProperty(this, 'stderr', { get: () => inner.stderr, enumerable: true });
      Object.defineProperty(this, 'pid', { get: () => inner.pid, enumerable: true });
    }
  }

  get sessionId(): string | undefined {
    return this.owner.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.owner.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.owner.inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    return this.owner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (!this.owner.isCurrent(this) || this.ended) return Promise.reject(new Error('this connect attempt has ended'));
    return this.owner.inner.send(message, options);
  }

  /** This attempt connected: from now on, closing the lease closes the transport. */
  commit(): void {
    this.committed = true;
  }

  async close(): Promise<void> {
    if (this.committed) return this.owner.inner.close();
    // A failed attempt: the transport stays up for the next one (or the session closes it).
    this.closed();
    return Promise.resolve();
  }

  /** @internal The transport closed, or this attempt was given up: tell the client once. */
  closed(): void {
    if (this.ended) return;
    this.ended = true;
    this.onclose?.();
  }
}
