/**
 * Starts a fixture server that prints `LISTENING <port>` (test/fixtures: the SDK's Node servers,
 * the Python one with `python3`) and resolves with its MCP URL once it listens. The caller kills
 * the child.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export async function startListening(command: string, args: readonly string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${args[0] ?? command} exited (${code}) before listening`)));
  });
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}
