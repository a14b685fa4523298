// The README's comparison "what a routed server gets", rendered from what the agent parity test
// measured in the real host (agentParity.test.ts). No vscode import: it only formats.

/** What one copy of the server got from its client, and what the agent got of it. */
export interface SideView {
  /** The client capabilities the server recorded at `initialize`. */
  readonly clientCapabilities: Record<string, unknown>;
  /** What `roots/list` answered the server (folder URIs), or why it could not ask. */
  readonly roots: unknown;
  /** The level the client set with `logging/setLevel`, undefined when it sent none. */
  readonly logLevel: string | undefined;
  /** The serverInfo the agent's client received. */
  readonly serverInfo: Record<string, unknown>;
  /** The server capabilities the agent's client received. */
  readonly serverCapabilities: Record<string, unknown>;
  /** The server's tools in `vscode.lm.tools`, prefix cut. */
  readonly tools: readonly string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `key (sub, sub)` per capability, one level deep; extension and experimental ids in full. */
export function describeCapabilities(caps: Record<string, unknown>): string {
  return Object.keys(caps)
    .sort()
    .map((k) => {
      const v = caps[k];
      if (!isObject(v) || Object.keys(v).length === 0) return `\`${k}\``;
      const inner = Object.keys(v)
        .sort()
        .map((sub) =>
          k === 'tasks' && sub === 'requests' && isObject(v[sub]) ? `requests: ${Object.keys(v[sub]).sort().join(', ')}` : sub,
        );
      return `\`${k}\` (${inner.join(', ')})`;
    })
    .join(', ');
}

function describeRoots(roots: unknown): string {
  if (!Array.isArray(roots)) return String(roots);
  return `${roots.length} folder${roots.length === 1 ? '' : 's'}${roots.length ? `: ${roots.map(String).join(', ')}` : ''}`;
}

function describeServerInfo(info: Record<string, unknown>): string {
  return Object.keys(info)
    .sort()
    .map((k) => (Array.isArray(info[k]) ? `${k} (${(info[k] as unknown[]).length})` : k))
    .join(', ');
}

function describeTools(tools: readonly string[]): string {
  return `${tools.length}: ${tools.map((t) => `\`${t}\``).join(', ')}`;
}

/** The markdown table: one row per aspect, VS Code's copy against ours. */
export function parityTable(vscode: SideView, ours: SideView): string {
  const sampling = (v: SideView): string =>
    v.clientCapabilities['sampling']
      ? `declared; ${v.tools.includes('trigger-sampling-request') ? 'sampling tool listed' : 'no sampling tool'}`
      : 'not declared';
  const rows: [string, (v: SideView) => string][] = [
    ['Client capabilities the server sees', (v) => describeCapabilities(v.clientCapabilities)],
    ['`roots/list` answer', (v) => describeRoots(v.roots)],
    ['Sampling', sampling],
    ['Log level set (`logging/setLevel`)', (v) => (v.logLevel ? `\`${v.logLevel}\`` : 'none')],
    ['serverInfo the agent sees', (v) => describeServerInfo(v.serverInfo)],
    ['Server capabilities the agent sees', (v) => describeCapabilities(v.serverCapabilities)],
    ['Tools in `vscode.lm.tools`', (v) => describeTools(v.tools)],
  ];
  const cell = (s: string): string => s.replace(/\|/g, '\\|');
  return [
    '| | VS Code runs the server | Routed through this extension |',
    '|---|---|---|',
    ...rows.map(([label, f]) => `| ${label} | ${cell(f(vscode))} | ${cell(f(ours))} |`),
  ].join('\n');
}
