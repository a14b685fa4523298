// Every process a bench run starts for a host (code-server, its extension host, the MCP servers
// they spawn, the harness's own fixture servers) carries MCP_BENCH_RUN=<this run's id> in its
// environment. Stopping a code-server kills its process group; this is the check behind it: a
// process that left the group (or a group that did not die) is found by its environment and killed
// by pid, so that a bench run, whichever way it ends, leaves nothing running. Linux (/proc) only;
// elsewhere it finds nothing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export const RUN_ENV = 'MCP_BENCH_RUN';
/** This run's id: the value of RUN_ENV in everything it starts. */
export const RUN_ID = `${process.pid}-${Date.now().toString(36)}`;

/** @returns {{ pid: number, command: string }[]} the live processes this run started */
export function findLeftovers() {
  if (!existsSync('/proc')) return [];
  const marker = `${RUN_ENV}=${RUN_ID}\0`;
  /** @type {{ pid: number, command: string }[]} */
  const found = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!`${readFileSync(`/proc/${entry}/environ`, 'latin1')}\0`.includes(marker)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 160);
      found.push({ pid, command });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * SIGKILLs every process this run started that is still alive, by pid; returns what it killed.
 * Synchronous, so it also works in an `exit` handler.
 */
export function killLeftoversSync() {
  const found = findLeftovers();
  for (const p of found) killPid(p.pid);
  return found;
}

/** @param {number} pid */
export function killPid(pid) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}
