import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hostPaths, repoRoot } from '../../scripts/hostPaths.mjs';
import { openWorkbench, pickItem, quickInput, runCommand, waitForServers, type Workbench, readQuestion } from './workbench';
import { checkVsixReadme } from '../../scripts/lib/vsixReadme.mjs';

/** Tests the package as shipped: `npm run package`, then `code-server --install-extension`. */
describe('VSIX: install the packaged extension into code-server', () => {
  let wb: Workbench | undefined;
  let extensionsDir: string;
  let vsix: string;

  before(() => {
    const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    vsix = path.join(repoRoot, `mcp-elicitation-host-${version}.vsix`);
    const r = spawnSync('npm', ['run', '-s', 'package'], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(r.status, 0, `npm run package failed:\n${r.stdout}\n${r.stderr}`);
    assert.ok(existsSync(vsix), 'the VSIX was written');
    extensionsDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-vsix-exts-'));
    const p = hostPaths();
    const out = execFileSync(
      p.node,
      [
        p.codeServerEntry,
        '--install-extension',
        vsix,
        '--extensions-dir',
        extensionsDir,
        '--user-data-dir',
        path.join(extensionsDir, '.data'),
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, XDG_CONFIG_HOME: path.join(extensionsDir, '.xdg') },
      },
    );
    assert.match(out, /successfully installed/i);
  });

  after(async () => {
    await wb?.close();
    rmSync(extensionsDir, { recursive: true, force: true });
    // `package` minified dist/; put the development build back for whatever runs next.
    spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repoRoot });
  });

  it('contains only what runs (allow-list) and is small', () => {
    const listing = execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' });
    const files = listing
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    assert.ok(files.includes('dist/extension.js'));
    assert.ok(files.includes('media/webview.js'));
    // Every file the bundle loads apart (scripts/build.mjs, LAZY) ships beside it, and so does
    // every file those load in turn (the gateway and the preview checker require ajv.js).
    const loaded = new Set(['dist/extension.js']);
    for (const file of loaded) {
      for (const m of readFileSync(path.join(repoRoot, file), 'utf8').matchAll(/require\("\.\/([\w.-]+\.js)"\)/g)) {
        loaded.add(`dist/${m[1]}`);
      }
    }
    assert.ok(loaded.size >= 8, `files loaded apart: ${[...loaded].join(', ')}`);
    for (const f of loaded) assert.ok(files.includes(f), `${f} is loaded by dist/extension.js or a file it loads, and must ship`);
    for (const f of files) assert.ok(!/^(src|test|scripts|node_modules|webview|out|\.vscode-test)\//.test(f), `${f} must not ship`);
    assert.ok(statSync(vsix).size < 5 * 1024 * 1024, 'VSIX under 5 MB');
  });

  it('shows its pictures: every image the packaged README references is inside the VSIX (or an https URL)', () => {
    const { images, problems } = checkVsixReadme(vsix);
    assert.ok(images.length >= 10, `the packaged README shows its pictures (found ${images.length})`);
    assert.deepEqual(problems, []);
  });

  it('activates from the installed VSIX and answers an elicitation end to end', async () => {
    const installed = readdirSync(extensionsDir).filter((d) => d.startsWith('mcp-elicitation.mcp-elicitation-host-'));
    assert.equal(installed.length, 1, 'installed under publisher.name-version');
    wb = await openWorkbench({
      extensionsDir,
      servers: {
        demo: {
          command: 'node',
          args: [path.join(repoRoot, 'demo', 'servers', 'demoServer.mjs')],
          env: { DEMO_RECORD: path.join(os.tmpdir(), `vsix-demo-${process.pid}.jsonl`) },
        },
      },
    });
    // Not the development folder: nothing in the URL points at this repository.
    assert.ok(!wb.page.url().includes('extensionDevelopmentPath'));
    await waitForServers(wb.page, 1);
    await runCommand(wb.page, 'MCP Elicitation: Run Tool…');
    await pickItem(wb.page, 'Ask for a name');
    await quickInput(wb.page).getByText('What should I call you?').waitFor();
    await readQuestion(wb.page);
    await wb.page.keyboard.type('Grace');
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.editor-instance .view-lines', { hasText: 'Hello, Grace!' }).first().waitFor({ timeout: 20_000 });
  });
});
