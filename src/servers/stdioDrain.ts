/**
 * One drain wait per stdio server, not one per message.
 *
 * The SDK's `StdioClientTransport.send` writes each message to the child's stdin and, when the
 * write reports the pipe full, waits with `stdin.once('drain')`: one listener per message. A
 * server that floods us (1,000 `roots/list` at once, each answered, most with the rate limit's
 * error) reads our answers slower than we write them, so every answer past the pipe's high-water
 * mark added a listener, and Node warned from the eleventh: "MaxListenersExceededWarning: Possible
 * EventEmitter memory leak detected. 11 drain listeners".
 *
 * Here every message is still written at once, so Node's stream keeps them in order and flushes
 * them on close as before; the sends that meet a full pipe all wait for the same drain, with one
 * listener. A send resolves when it did in the SDK: at once, or at the next drain.
 *
 * Installed on the SDK's own instance (its `send`), never by subclassing: the SDK's version
 * negotiation probes on a disposable sibling process only for the exact base class, and a subclass
 * would make it probe in place (see readStdioServerParams in the SDK's client).
 */
import { serializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** The part of the child's stdin this needs. */
interface Stdin {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/** The SDK keeps the child in a private field and offers no stdin; test/unit/sdkShape.test.ts checks it. */
interface StdioInternals {
  _process?: { stdin?: Stdin | null } | undefined;
}

/**
 * Replaces `transport.send` with one that shares a single drain wait. Returns false, and leaves
 * the SDK's send in place, when the SDK no longer keeps its child where this looks.
 */
export function shareDrainWait(transport: StdioClientTransport): boolean {
  const internals = transport as unknown as StdioInternals;
  if (!('_process' in internals)) return false;
  const sdkSend = transport.send.bind(transport);
  let drained: Promise<void> | undefined;
  transport.send = (message: JSONRPCMessage): Promise<void> => {
    const stdin = internals._process?.stdin;
    // Not started, or the child is gone: the SDK's send says so (its "Not connected" error).
    if (!stdin) return sdkSend(message);
    const roomLeft = stdin.write(serializeMessage(message));
    if (drained) return drained;
    if (roomLeft) return Promise.resolve();
    drained = new Promise<void>((resolve) => {
      stdin.once('drain', () => {
        drained = undefined;
        resolve();
      });
    });
    return drained;
  };
  return true;
}
