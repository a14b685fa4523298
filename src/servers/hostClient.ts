import { Client, type ClientContext, type JSONRPCRequest, type Result } from '@modelcontextprotocol/client';

export type RawRequestHandler = (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>;

/**
 * The SDK client, with pushed `elicitation/create` (2025 servers) handed to us raw. `Client`
 * wraps that handler in its own zod validation, which answers a malformed request with a zod dump
 * before the broker sees it; the broker checks the params itself and answers -32602 naming the
 * property and the reason. `_wrapHandler` is the SDK's documented hook for subclasses.
 */
export class HostClient extends Client {
  private rawElicitation: RawRequestHandler | undefined;

  setElicitationHandler(handler: RawRequestHandler): void {
    this.rawElicitation = handler;
    // Registers the method (and checks we declare the capability); the hook below swaps the handler.
    this.setRequestHandler('elicitation/create', () => ({ action: 'cancel' }));
  }

  protected override _wrapHandler(method: string, handler: RawRequestHandler): RawRequestHandler {
    if (method === 'elicitation/create' && this.rawElicitation) return this.rawElicitation;
    return super._wrapHandler(method, handler);
  }
}
