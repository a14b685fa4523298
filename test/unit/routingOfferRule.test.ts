import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listedNames, offerable, parseOfferAnswer, shouldOffer, type OfferConditions } from '../../src/gateway/routingOfferRule';
import type { ServerSource } from '../../src/config/parse/definitions';

// When the extension offers to route VS Code's servers (issue 26, item 2): once per workspace, and
// never where routing cannot help. The in-host test (test/integration/routingOffer.test.ts) shows
// the offer and answers it; these are the rules it follows.

const mcpJson: ServerSource = { kind: 'workspaceFile', file: '/w/.vscode/mcp.json', folder: '/w' };
const dotMcp: ServerSource = { kind: 'workspaceFile', file: '/w/.mcp.json', folder: '/w', format: 'portable' };
const setting: ServerSource = { kind: 'setting', scope: 'workspace' };

const ready: OfferConditions = { enabled: true, trusted: true, agentOn: true, answered: undefined, shownThisWindow: false, routable: 2 };

describe('the offer to route VS Code’s servers', () => {
  it('is made when VS Code runs a server Route can bring here, in a trusted workspace, with AI features on, never answered', () => {
    assert.equal(shouldOffer(ready), true);
  });

  it('is not made with nothing to route, untrusted, AI features off, the setting off, once answered, or twice in a window', () => {
    const cases: Array<[string, Partial<OfferConditions>]> = [
      ['nothing to route', { routable: 0 }],
      ['untrusted workspace', { trusted: false }],
      ['AI features off (the extension runs the servers itself)', { agentOn: false }],
      ['mcpElicitation.offerRouting off', { enabled: false }],
      ['answered Route All', { answered: 'routeAll' }],
      ['answered Choose', { answered: 'choose' }],
      ["answered Don't Ask Again", { answered: 'never' }],
      ['shown in this window already (closed unanswered)', { shownThisWindow: true }],
    ];
    for (const [why, change] of cases) assert.equal(shouldOffer({ ...ready, ...change }), false, why);
  });

  it('remembers only the three answers; anything else in workspaceState counts as unanswered', () => {
    for (const a of ['routeAll', 'choose', 'never'] as const) assert.equal(parseOfferAnswer(a), a);
    for (const v of [undefined, null, '', 'yes', true, 1, {}, ['never']]) assert.equal(parseOfferAnswer(v), undefined, JSON.stringify(v));
  });

  it('lists the servers VS Code runs that Route can bring here, by name', () => {
    const defs = [
      { name: 'zeta', source: mcpJson },
      { name: 'alpha', source: dotMcp },
      { name: 'ours', source: setting },
    ];
    assert.deepEqual(
      offerable(defs).map((d) => d.name),
      ['alpha', 'zeta'],
    );
  });

  it('names the first three servers and counts the rest', () => {
    assert.deepEqual(listedNames(['a', 'b']), { shown: ['a', 'b'], more: 0 });
    assert.deepEqual(listedNames(['a', 'b', 'c', 'd', 'e']), { shown: ['a', 'b', 'c'], more: 2 });
  });
});
