import type * as vscode from 'vscode';
import { Disposable } from '../util/disposable';
import { Emitter } from '../util/emitter';
import { isRouted, parseRoutes, withoutRoute, withRoute, type RoutableDef, type Route } from './routes';

/** Where routes live: this workspace's state, per user, like VS Code's own enablement (routes.ts). */
const ROUTES_KEY = 'mcpElicitation.routes';

/** The routes of this user in this workspace (routes.ts), with a change event the loader reloads on. */
export class RouteStore extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<void>());
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly state: vscode.Memento) {
    super();
  }

  all(): Route[] {
    return parseRoutes(this.state.get(ROUTES_KEY));
  }

  isRouted(def: RoutableDef): boolean {
    return isRouted(this.all(), def);
  }

  async add(...routes: Route[]): Promise<void> {
    // One update and one event for many: the loader reloads once, not once per server.
    await this.state.update(
      ROUTES_KEY,
      routes.reduce((all, r) => withRoute(all, r), this.all()),
    );
    this._onDidChange.fire();
  }

  /** False when `route` was not routed. */
  async remove(route: Route): Promise<boolean> {
    const before = this.all();
    const after = withoutRoute(before, route);
    if (after.length === before.length) return false;
    await this.state.update(ROUTES_KEY, after.length ? after : undefined);
    this._onDidChange.fire();
    return true;
  }
}
