// Server and workspace text on the surfaces outside a form, in the real host: the Servers view
// (server, tool and VS Code server rows: labels, descriptions, tooltips), the Pending view (a
// question on screen, its history row) and the status bar (both items, and the transient message a
// withdrawn question leaves), and Run Tool's server and tool pickers and its progress notification.
// A hostile server name, config key, launch command, serverInfo, tool and message feed them; VS
// Code's own link pattern is run over everything the views hand VS Code, and a Markdown tooltip
// must leave nothing a Markdown renderer would turn into a link or markup.
// The prompts, validation messages and notifications are the hostile suite's and the e2e's
// (test/integration/hostile.test.ts, test/e2e/formQuick.test.ts, which clicks where the link was).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { TestServices } from '../host/testServices';
import { SURFACE_TEXTS } from '../fixtures/hostileCases.mjs';
import { liveMarkdown, MARKDOWN_LINKS, renderedLiteral, vscodeIcons, vscodeLinks } from '../unit/support/linkPatterns';
import { writeFileSync } from 'node:fs';
import { nextPrompt, services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';
import { followInBrowser, protectedServer } from './protectedServer';

/** A config key (the server's name) with a command link and raw HTML. */
const NAME = `${SURFACE_TEXTS[0]} ${SURFACE_TEXTS[4]}`;
/** A config key whose definition is broken by an env key with a link: its error quotes both. */
const BROKEN = `${SURFACE_TEXTS[1]} broken`;
/** A launch command with a link: the spawn error quotes it. */
const FAILING = `${SURFACE_TEXTS[2]} failing`;
const ALL = SURFACE_TEXTS.join(' ');
/** The name of the fixture's tool whose name is a command link. */
const LINK_TOOL = SURFACE_TEXTS[0] ?? '';

/** A row one of our pickers handed VS Code. */
interface PickerRow {
  readonly picker: string;
  readonly label: string;
  readonly description: string;
}

function pickerWindow(): {
  showQuickPick: (items: readonly (vscode.QuickPickItem | string)[], options?: vscode.QuickPickOptions) => Thenable<unknown>;
  createQuickPick: typeof vscode.window.createQuickPick;
} {
  return vscode.window;
}

/** A showQuickPick that records each row (a plain string is its own label) and is dismissed, as the user would. */
function recordRows(rows: PickerRow[], picker: () => string): ReturnType<typeof pickerWindow>['showQuickPick'] {
  return (items) => {
    for (const i of items) {
      rows.push(
        typeof i === 'string'
          ? { picker: picker(), label: i, description: '' }
          : { picker: picker(), label: i.label, description: i.description ?? '' },
      );
    }
    return Promise.resolve(undefined);
  };
}

/** Every icon VS Code would draw in the rows, except our own on "Decline All from …". */
function iconsIn(rows: readonly PickerRow[]): string[] {
  return rows.flatMap((r) =>
    [...vscodeIcons(r.label), ...vscodeIcons(r.description)]
      .filter((icon) => icon !== '$(circle-slash)')
      .map((icon) => `${r.picker}: ${icon} in ${JSON.stringify(r.label)}`),
  );
}

/** One string VS Code was handed for a surface, and how it renders it. */
interface Surface {
  readonly where: string;
  readonly text: string;
  /** A MarkdownString: rendered as Markdown, with these switches. */
  readonly markdown?: { readonly isTrusted: unknown; readonly supportHtml: unknown; readonly supportThemeIcons: unknown };
}

function collect(out: Surface[], where: string, value: string | boolean | vscode.TreeItemLabel | vscode.MarkdownString | undefined): void {
  if (value === undefined || typeof value === 'boolean') return;
  if (typeof value === 'string') out.push({ where, text: value });
  else if (value instanceof vscode.MarkdownString) {
    out.push({
      where,
      text: value.value,
      markdown: { isTrusted: value.isTrusted, supportHtml: value.supportHtml, supportThemeIcons: value.supportThemeIcons },
    });
  } else out.push({ where, text: value.label });
}

/** Every label, description and tooltip of a tree, as its provider hands them to VS Code (tooltips resolved too). */
async function treeSurfaces<T>(view: string, provider: vscode.TreeDataProvider<T>, out: Surface[], parent?: T): Promise<void> {
  for (const node of (await provider.getChildren(parent)) ?? []) {
    let item = await provider.getTreeItem(node);
    if (provider.resolveTreeItem) item = (await provider.resolveTreeItem(item, node, new vscode.CancellationTokenSource().token)) ?? item;
    const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
    collect(out, `${view} label`, item.label);
    collect(out, `${view} description of ${label.slice(0, 40)}`, item.description);
    collect(out, `${view} tooltip of ${label.slice(0, 40)}`, item.tooltip);
    await treeSurfaces(view, provider, out, node);
  }
}

/** Both status bar items as VS Code has them (the class keeps them private; the test reads them as VS Code does). */
function statusBarSurfaces(s: TestServices, out: Surface[]): void {
  const items = s.statusBar as unknown as { servers: vscode.StatusBarItem; pending: vscode.StatusBarItem };
  for (const which of ['servers', 'pending'] as const) {
    collect(out, `status bar ${which} text`, items[which].text);
    collect(out, `status bar ${which} tooltip`, items[which].tooltip);
  }
}

/** What a surface shows, links broken or not: zero-width spaces out, Markdown escapes resolved. */
function shownText(x: Surface): string {
  return (x.markdown ? renderedLiteral(x.text) : x.text).replace(/\u200b/g, '');
}

suite('Server and workspace text on views and the status bar: VS Code’s link pattern finds none', () => {
  let s: TestServices;
  let saved: unknown;
  const surfaces: Surface[] = [];
  const statusMessages: string[] = [];
  let restoreStatus: (() => void) | undefined;

  suiteSetup(async function () {
    this.timeout(60_000);
    s = await services();
    const repo = process.env['MCP_TEST_REPO_ROOT'];
    assert.ok(repo, 'MCP_TEST_REPO_ROOT is set by the harness');
    const config = vscode.workspace.getConfiguration('mcpElicitation');
    saved = config.inspect('servers')?.workspaceValue;
    // Record every transient status bar message on its way to VS Code (the API has no way to read one back).
    const window = vscode.window as { setStatusBarMessage: (text: string, hide: number) => vscode.Disposable };
    const real = window.setStatusBarMessage;
    window.setStatusBarMessage = (text: string, hide: number) => {
      statusMessages.push(text);
      return real.call(vscode.window, text, hide);
    };
    restoreStatus = () => (window.setStatusBarMessage = real);
    await config.update(
      'servers',
      {
        [NAME]: { command: 'node', args: [path.join(repo, 'test', 'fixtures', 'hostileIdentityServer.mjs')] },
        [BROKEN]: { command: 'node', env: { [SURFACE_TEXTS[3] ?? '']: { not: 'a string' } } },
        [FAILING]: { command: `${SURFACE_TEXTS[0]}-not-a-program` },
      },
      vscode.ConfigurationTarget.Workspace,
    );
    await waitForRunning(s, NAME);
    await waitFor(() => s.manager.get(NAME)?.tools.some((t) => t.name === 'hostileTool') === true, 'the hostile tool listed');
    await waitFor(() => s.manager.get(FAILING)?.state.kind === 'error', 'the failing server in error');
    await waitFor(() => s.manager.list().some((e) => e.name === BROKEN && e.configError !== undefined), 'the broken server listed');
  });

  suiteTeardown(async function () {
    this.timeout(30_000);
    restoreStatus?.();
    s.broker.queue.cancelAll();
    await vscode.workspace.getConfiguration('mcpElicitation').update('servers', saved, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => s.manager.get(NAME) === undefined, 'hostile servers removed');
  });

  test('the control: what the server and the workspace wrote holds links VS Code would render', () => {
    for (const t of [SURFACE_TEXTS[0], SURFACE_TEXTS[1], SURFACE_TEXTS[2], NAME, BROKEN, FAILING, ALL]) {
      assert.ok(vscodeLinks(t ?? '').length > 0, t);
    }
    for (const re of MARKDOWN_LINKS) assert.match(ALL, re);
  });

  test('the Servers view, a question on screen and in history in the Pending view, the status bar: no link, no markup', async function () {
    this.timeout(60_000);
    await treeSurfaces('servers', s.serversView, surfaces);

    // A question with the hostile text, on screen: the Pending view lists it and the status bar counts it.
    const shown = nextPrompt(s);
    const asked = vscode.commands.executeCommand('mcpElicitation.runTool', NAME, 'elicit', {
      params: {
        message: `${ALL}\n${SURFACE_TEXTS.join('\n')}`,
        requestedSchema: { type: 'object', properties: { a: { type: 'string' } } },
      },
    });
    const prompt = await shown;
    await waitFor(() => s.broker.queue.size > 0, 'the question is pending');
    await treeSurfaces('pending', s.pendingTree, surfaces);
    statusBarSurfaces(s, surfaces);
    s.broker.queue.settle(prompt.id, 'cancel');
    await asked;

    // A question the server withdraws: the transient status bar message names the server.
    const withdrawn = nextPrompt(s);
    const before = statusMessages.length;
    const gone = vscode.commands.executeCommand('mcpElicitation.runTool', NAME, 'elicit', {
      params: { message: ALL, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } },
      cancelAfterMs: 500,
    });
    await withdrawn;
    await gone;
    await waitFor(() => statusMessages.length > before, 'the withdrawn question is reported on the status bar');
    for (const m of statusMessages) collect(surfaces, 'status bar message', m);

    // The history rows of both questions.
    await treeSurfaces('pending', s.pendingTree, surfaces);
    statusBarSurfaces(s, surfaces);

    // Fed: each hostile text reached some surface, readable (links broken, not removed).
    const readable = surfaces.map(shownText).join('\n');
    for (const t of [NAME, BROKEN, FAILING, ...SURFACE_TEXTS.slice(1, 3)]) {
      assert.ok(readable.includes(t.replace(/\n/g, ' ')) || readable.includes(t), `${t} reached a surface`);
    }
    for (const where of [
      'servers label',
      'servers description',
      'servers tooltip',
      'pending label',
      'pending tooltip',
      'status bar message',
    ]) {
      assert.ok(
        surfaces.some((x) => x.where.startsWith(where) && /Quit|Verify|Open/.test(x.text)),
        `hostile text reached a ${where}`,
      );
    }

    const found = surfaces.flatMap((x) => {
      const live = x.markdown ? liveMarkdown(x.text) : x.text;
      const links = vscodeLinks(live);
      const markup = x.markdown ? MARKDOWN_LINKS.filter((re) => re.test(live)).map(String) : [];
      const switches =
        x.markdown && (x.markdown.isTrusted || x.markdown.supportHtml || x.markdown.supportThemeIcons) ? ['trusted/html/icons'] : [];
      const bad = [...links, ...markup, ...switches];
      return bad.length ? [`${x.where}: ${bad.join(', ')} in ${JSON.stringify(x.text.slice(0, 160))}`] : [];
    });
    assert.deepEqual(found, [], `${surfaces.length} surfaces read`);
  });

  test('Run Tool: the server picker, the tool picker and the progress notification show no link and no icon', async function () {
    this.timeout(60_000);
    // Stand in for the user at both pickers: record the rows as VS Code gets them and pick the
    // hostile server, then the tool whose name is a link. Record the progress notification's title.
    const window = vscode.window as {
      showQuickPick: (items: readonly vscode.QuickPickItem[], options?: vscode.QuickPickOptions) => Thenable<unknown>;
      withProgress: typeof vscode.window.withProgress;
    };
    const realPick = window.showQuickPick;
    const realProgress = window.withProgress;
    const rows: Array<{ picker: string; item: vscode.QuickPickItem }> = [];
    const titles: string[] = [];
    window.showQuickPick = (items, options) => {
      const picker = options?.title ?? '';
      for (const item of items) rows.push({ picker, item });
      const row = items.find((i) => {
        const x = i as vscode.QuickPickItem & { pick?: { conn?: { name: string } }; tool?: { name: string } };
        return x.pick?.conn?.name === NAME || x.tool?.name === LINK_TOOL;
      });
      return Promise.resolve(row);
    };
    window.withProgress = ((options: vscode.ProgressOptions, task: never) => {
      titles.push(options.title ?? '');
      return realProgress.call(vscode.window, options, task);
    }) as typeof vscode.window.withProgress;
    let result: unknown;
    try {
      result = await vscode.commands.executeCommand('mcpElicitation.runTool');
    } finally {
      window.showQuickPick = realPick;
      window.withProgress = realProgress;
    }
    assert.ok(result, 'the tool named by a link ran');
    assert.ok(
      titles.some((t) => t.replace(/\u200b/g, '').includes(LINK_TOOL)),
      `the notification names the tool: ${JSON.stringify(titles)}`,
    );

    const texts = [
      ...rows.flatMap(({ picker, item }) =>
        (['label', 'description', 'detail'] as const).map((k) => ({
          where: `${picker} ${k} of ${item.label.slice(0, 40)}`,
          text: item[k] ?? '',
        })),
      ),
      ...titles.map((text) => ({ where: 'progress notification title', text })),
    ];
    // Fed: the serverInfo name reached the server picker, and the tools' descriptions (which hold
    // `$(zap)`) the tool picker, readable: zero-width spaces added, nothing removed.
    const readable = (where: string, t: string): boolean =>
      texts.some((x) => x.where.startsWith(where) && x.text.replace(/\u200b/g, '').includes(t));
    assert.ok(readable('Run Tool: pick a server description', SURFACE_TEXTS[0] ?? ''), 'the serverInfo name in the server picker');
    assert.ok(readable('Run Tool on', '$(zap)'), 'the tool description in the tool picker');
    const found = texts.flatMap((x) => {
      const bad = [...vscodeLinks(x.text), ...vscodeIcons(x.text)];
      return bad.length ? [`${x.where}: ${bad.join(', ')}`] : [];
    });
    assert.deepEqual(found, [], `${texts.length} texts read`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('pickers of configured names (a server command, Set Client Secret, Route, Give Back, Show Pending): a name draws no icon', async function () {
    this.timeout(90_000);
    // Config keys from a workspace's own files, where `$(…)` would draw an icon in a QuickPick row.
    const ours = '$(verified-filled) Verified';
    const remote = '$(key) Remote';
    const owned = '$(shield) Owned';
    const repo = process.env['MCP_TEST_REPO_ROOT'] ?? '';
    const config = vscode.workspace.getConfiguration('mcpElicitation');
    const configured = config.inspect<Record<string, unknown>>('servers')?.workspaceValue ?? {};
    const mode = config.inspect('workspaceMcpJson')?.workspaceValue;
    const mcpJson = workspaceMcpJson();
    const window = pickerWindow();
    const realPick = window.showQuickPick;
    const realCreate = window.createQuickPick;
    const rows: PickerRow[] = [];
    let picker = '';
    try {
      await config.update(
        'servers',
        {
          ...configured,
          [ours]: { command: 'node', args: [path.join(repo, 'test', 'fixtures', 'hostileIdentityServer.mjs')] },
          [remote]: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
        },
        vscode.ConfigurationTarget.Workspace,
      );
      const json = JSON.parse(mcpJson.original) as { servers: Record<string, unknown> };
      writeFileSync(mcpJson.path, JSON.stringify({ ...json, servers: { ...json.servers, [owned]: json.servers['fixture'] } }, null, 2));
      await waitForRunning(s, ours);
      const shown = nextPrompt(s);
      const asked = vscode.commands.executeCommand('mcpElicitation.runTool', ours, 'elicit', {
        params: { message: 'Which plan?', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } },
      });
      const prompt = await shown;

      // The user dismisses each picker: the rows are recorded as VS Code gets them.
      window.showQuickPick = recordRows(rows, () => picker);
      // Give Back lists the names in our workspace setting.
      for (const command of ['mcpElicitation.stopServer', 'mcpElicitation.setClientSecret', 'mcpElicitation.giveBackServer']) {
        picker = command;
        await vscode.commands.executeCommand(command);
      }
      // Route lists the servers VS Code runs: the suite's mcp.json servers go to VS Code for it.
      await config.update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
      await waitFor(() => s.manager.vscodeOwned().some((d) => d.name === owned), 'the file’s servers are VS Code’s');
      picker = 'mcpElicitation.routeServer';
      await vscode.commands.executeCommand(picker);
      window.showQuickPick = realPick;

      let list: vscode.QuickPick<vscode.QuickPickItem> | undefined;
      window.createQuickPick = (() => {
        window.createQuickPick = realCreate;
        list = realCreate.call(vscode.window);
        return list;
      }) as typeof vscode.window.createQuickPick;
      const listing = vscode.commands.executeCommand('mcpElicitation.showPending');
      await waitFor(() => (list?.items.length ?? 0) > 0, 'Show Pending lists the question');
      for (const i of list?.items ?? []) rows.push({ picker: 'showPending', label: i.label, description: i.description ?? '' });
      list?.hide();
      await listing;
      s.broker.queue.settle(prompt.id, 'cancel');
      await asked;
    } finally {
      window.showQuickPick = realPick;
      window.createQuickPick = realCreate;
      mcpJson.restore();
      await config.update('workspaceMcpJson', mode, vscode.ConfigurationTarget.Workspace);
      await config.update('servers', configured, vscode.ConfigurationTarget.Workspace);
      await waitFor(() => s.manager.get(ours) === undefined && s.manager.get(remote) === undefined, 'the servers removed');
      // The rest of the suite drives the mcp.json fixtures through our connections again.
      await waitForRunning(s, 'fixture');
      await waitForRunning(s, 'fixture-http');
    }

    // Fed: each name reached its picker, readable (zero-width spaces added, nothing removed).
    const reached = (where: string, name: string): boolean =>
      rows.some((r) => r.picker === where && r.label.replace(/\u200b/g, '').includes(name));
    assert.ok(reached('mcpElicitation.stopServer', ours), 'the server picker lists it');
    assert.ok(reached('mcpElicitation.setClientSecret', remote), 'Set Client Secret lists the remote server');
    assert.ok(reached('mcpElicitation.routeServer', owned), 'Route lists the server of VS Code’s file');
    assert.ok(reached('mcpElicitation.giveBackServer', ours), 'Give Back lists the server of our workspace setting');
    assert.ok(reached('showPending', ours), 'Show Pending names the server of the question');
    // Our own icon, on "Decline All from …", is the only one drawn.
    assert.deepEqual(iconsIn(rows), [], `${rows.length} rows read`);
  });

  test('the Sign Out picker: a signed-in server’s name draws no icon', async function () {
    this.timeout(90_000);
    const name = '$(verified-filled) Signed';
    const server = await protectedServer(s, name, followInBrowser);
    const window = pickerWindow();
    const realPick = window.showQuickPick;
    const rows: PickerRow[] = [];
    try {
      await waitForRunning(s, name);
      await waitFor(() => s.signIn.stateOf(name) === 'signedIn', 'signed in');
      window.showQuickPick = recordRows(rows, () => 'mcpElicitation.signOut');
      await vscode.commands.executeCommand('mcpElicitation.signOut');
    } finally {
      window.showQuickPick = realPick;
      await server.close();
    }
    assert.ok(
      rows.some((r) => r.label.replace(/\u200b/g, '').includes(name)),
      `Sign Out lists the server: ${JSON.stringify(rows)}`,
    );
    assert.deepEqual(iconsIn(rows), [], `${rows.length} rows read`);
  });

  test('a tool result tab: VS Code finds no command link in it, where a Markdown document with the same text has one', async function () {
    this.timeout(60_000);
    // The hostile tool's result holds `[Quit](command:…)`, `<command:…>` and a reference link to one.
    const result = await vscode.commands.executeCommand<CallToolResult>('mcpElicitation.runTool', NAME, 'hostileTool', {});
    const editor = await s.results.show(NAME, 'hostileTool', result);
    assert.ok(editor, 'the result is shown in front');
    const doc = editor.document;
    assert.ok(doc.getText().includes('(command:workbench.action.quit)'), 'the result holds the link text');
    // The control, opened after it: VS Code's Markdown support gives the same text a command link
    // (Ctrl+click runs it) once it serves links, and by then it has read the result tab too.
    const control = await vscode.workspace.openTextDocument({ language: 'markdown', content: doc.getText() });
    const commandLinks = async (uri: vscode.Uri): Promise<string[]> =>
      ((await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', uri)) ?? [])
        .map((l) => l.target?.toString() ?? '')
        .filter((t) => t.startsWith('command:'));
    let controlLinks: string[] = [];
    const deadline = Date.now() + 30_000;
    while (controlLinks.length === 0 && Date.now() < deadline) {
      controlLinks = await commandLinks(control.uri);
      if (controlLinks.length === 0) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(controlLinks.length > 0, 'the control: a Markdown document with the result text has a command link');
    assert.deepEqual(await commandLinks(doc.uri), [], `no command link in the result tab (${doc.languageId})`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.window.showTextDocument(control);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
