import type { EraSwitchPort } from '../../src/servers/connectionDeps';
import * as vscode from 'vscode';
import { Services, type ServicesOptions } from '../../src/context';
import type { ElicitationSink } from '../../src/elicitation/broker';
import type { Presenter } from '../../src/elicitation/presenter';
import type { OfferPrompt } from '../../src/ui/routingOffer';
import type { GaveUpPrompt } from '../../src/ui/gaveUpNotice';
import { Interceptor } from './intercept';
import { ManualClock } from './manualClock';

/** A prompt the extension put on screen. */
export interface ShownPrompt {
  /** `inputBox`, `quickPick`, `webview`, `consent`, or a Run Tool picker (`runTool.server`, `runTool.tool`). */
  readonly kind: string;
  readonly id: string;
  /**
   * When show() returned, on the extension host's clock (`performance.timeOrigin +
   * performance.now()`), which agrees across processes to well under a millisecond where
   * Date.now() cuts whole ones: the benchmark subtracts a bench server's send stamp from it.
   */
  readonly at: number;
  /** The quick input, for a quick-input prompt: tests type into it and accept it. */
  readonly widget: vscode.QuickInput | undefined;
  /** The rows of a Run Tool picker, as shown. */
  readonly items?: readonly vscode.QuickPickItem[] | undefined;
}

/** In-host tests exercise crash give-up without waiting the real 31 s of backoff. */
const RESTART_DELAYS_MS = [100, 100, 100, 100, 100];

/**
 * What the in-host tests and the benchmark see of and change in one TestServices: observations,
 * timings a test may shorten while it runs, and interceptors in front of the presenter and the
 * broker's intake.
 */
export class TestHooks {
  private readonly _onDidShowPrompt = new vscode.EventEmitter<ShownPrompt>();
  readonly onDidShowPrompt = this._onDidShowPrompt.event;
  /** Every URL handed to the browser, in order. */
  readonly opened: string[] = [];
  /** The last lines written to any log channel, after redaction, oldest first. */
  readonly logLines: { readonly channel: string; readonly level: string; readonly text: string }[] = [];
  /** Every CSP violation a form webview reported (the hostile battery asserts there are none). */
  readonly cspViolations: { readonly server: string; readonly directive: string }[] = [];
  /** How long activation took to build the services and their commands, ms (the benchmark reads it). */
  activationMs: number | undefined = undefined;
  /** Keep-alive interval while the user answers, ms; `undefined`: the extension's own. */
  keepAliveMs: number | undefined = undefined;
  /** How long a server may take to answer `initialize`, ms; `undefined`: the extension's own. */
  connectTimeoutMs: number | undefined = undefined;
  /** How long the browser has to come back from a sign-in, ms; `undefined`: the extension's own. */
  signInTimeoutMs: number | undefined = undefined;
  /**
   * How long a question that opened by itself takes no accept, ms; `undefined`: the extension's own.
   * 0 here: the suite answers the moment a prompt shows; the test of the guard sets it.
   */
  strayAcceptMs: number | undefined = 0;
  /**
   * Simulated time for the timeouts of requests to servers: in the test build they fire only when
   * a test advances this clock (no in-host test waits a real 15 minutes for one).
   */
  readonly legClock = new ManualClock();
  /** In front of what the broker shows and tells the user. */
  readonly presenter = new Interceptor<Presenter>();
  /** In front of the broker's intake from the connections (requests, completion notices, servers gone). */
  readonly sink = new Interceptor<ElicitationSink>();
  /** In front of the offer to route VS Code's servers: its notification and its picker. */
  readonly routingOffer = new Interceptor<OfferPrompt>();
  /** In front of the notice that a server was given up on. */
  readonly gaveUp = new Interceptor<GaveUpPrompt>();
  /** In front of the offer to reconnect a server at the revision a tool needs (ui/eraOffer.ts). */
  readonly eraOffer = new Interceptor<EraSwitchPort>();

  /** The options the services are built with: every seam goes through this object. */
  options(): ServicesOptions {
    return {
      restartDelaysMs: RESTART_DELAYS_MS,
      presenter: (real) => this.presenter.wrap(real),
      sink: (real) => this.sink.wrap(real),
      routingOffer: (real) => this.routingOffer.wrap(real),
      gaveUpPrompt: (real) => this.gaveUp.wrap(real),
      eraOffer: (real) => this.eraOffer.wrap(real),
      keepAliveMs: () => this.keepAliveMs,
      connectTimeoutMs: () => this.connectTimeoutMs,
      signInTimeoutMs: () => this.signInTimeoutMs,
      strayAcceptMs: () => this.strayAcceptMs,
      legTimer: this.legClock.setTimer,
      observers: {
        promptShown: (kind, id, widget, items) =>
          this._onDidShowPrompt.fire({ kind, id, at: performance.timeOrigin + performance.now(), widget, items }),
        cspViolation: (server, directive) => this.cspViolations.push({ server, directive }),
        openedExternal: (url) => this.opened.push(url),
        logLine: (channel, level, text) => {
          this.logLines.push({ channel, level, text });
          if (this.logLines.length > 5000) this.logLines.splice(0, 1000);
        },
      },
    };
  }

  dispose(): void {
    this._onDidShowPrompt.dispose();
  }
}

/**
 * The test factory: the extension's services with test timings, observers and interceptors.
 * Built by the test build's activate() (test/host/extension.ts) in place of plain Services.
 */
export class TestServices extends Services {
  constructor(
    context: vscode.ExtensionContext,
    readonly hooks: TestHooks = new TestHooks(),
  ) {
    super(context, hooks.options());
    this.adopt([hooks]);
  }
}
