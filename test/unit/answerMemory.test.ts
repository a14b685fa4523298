import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalJson, questionFingerprint } from '../../src/elicitation/memory/fingerprint';
import { MAX_REMEMBERED, readStore, STORE_VERSION, writeStore, type RememberedAnswer } from '../../src/elicitation/memory/rememberedStore';
import { AnswerMemory, canRemember, MEMORY_KEY, type StateLike } from '../../src/elicitation/memory/answerMemory';

// Remembered answers (issue 26 item 3): the same question is the same server, the exact message
// and the same schema (canonical JSON); anything else is asked again.

const confirm = { type: 'object', properties: {} };
const oneText = { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] };

/** A Memento backed by a Map, as VS Code's workspaceState behaves for one key. */
function fakeState(initial: Record<string, unknown> = {}): StateLike & { readonly data: Map<string, unknown>; writes: number } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    writes: 0,
    get: (key) => data.get(key),
    update(key, value) {
      this.writes++;
      if (value === undefined) data.delete(key);
      else data.set(key, structuredClone(value));
      return Promise.resolve();
    },
  };
}

/** Where every server of these tests is, unless a test moves it. */
const DEST = '["remote","https://fixture.example/mcp"]';
const here = (): string => DEST;

function answer(over: Partial<RememberedAnswer> = {}): Omit<RememberedAnswer, 'scope'> {
  const server = over.server ?? 'fixture';
  const message = over.message ?? 'Deploy to staging?';
  return {
    fingerprint: questionFingerprint(server, message, confirm),
    server,
    destination: DEST,
    message,
    fieldKeys: [],
    content: {},
    savedAt: 1000,
    ...over,
  };
}

void describe('question fingerprint', () => {
  void it('is the same for the same server, message and schema, whatever the order of the schema keys', () => {
    const reordered = { required: ['name'], properties: { name: { title: 'Name', type: 'string' } }, type: 'object' };
    assert.equal(questionFingerprint('s', 'Your name?', oneText), questionFingerprint('s', 'Your name?', reordered));
    assert.equal(canonicalJson(reordered), canonicalJson(oneText));
  });

  void it('collision attempt: the same message with a different schema is another question', () => {
    const other = { ...oneText, properties: { name: { type: 'string', title: 'Name', default: 'root' } } };
    assert.notEqual(questionFingerprint('s', 'Your name?', oneText), questionFingerprint('s', 'Your name?', other));
    assert.notEqual(questionFingerprint('s', 'Proceed?', confirm), questionFingerprint('s', 'Proceed?', oneText));
    // An array's order is meaning (enum options, required), not presentation.
    const ab = { type: 'object', properties: { c: { type: 'string', enum: ['a', 'b'] } } };
    const ba = { type: 'object', properties: { c: { type: 'string', enum: ['b', 'a'] } } };
    assert.notEqual(questionFingerprint('s', 'Pick', ab), questionFingerprint('s', 'Pick', ba));
  });

  void it('collision attempt: the same schema with different message whitespace is another question', () => {
    const base = questionFingerprint('s', 'Delete all files?', confirm);
    for (const variant of ['Delete  all files?', 'Delete all files? ', ' Delete all files?', 'Delete\tall files?', 'Delete all\nfiles?']) {
      assert.notEqual(questionFingerprint('s', variant, confirm), base, JSON.stringify(variant));
    }
  });

  void it('another server asking the same is another question', () => {
    assert.notEqual(questionFingerprint('a', 'Proceed?', confirm), questionFingerprint('b', 'Proceed?', confirm));
  });

  void it('no split of the same characters between message and schema gives the same fingerprint', () => {
    // Plain concatenation would make these two equal.
    assert.notEqual(questionFingerprint('s', 'a"', { x: 1 }), questionFingerprint('s', 'a', '"{"x":1}'));
    assert.notEqual(questionFingerprint('s|t', 'm', confirm), questionFingerprint('s', 't|m', confirm));
  });
});

void describe('which questions may be remembered', () => {
  void it('forms and confirmations without a secret-like field only', () => {
    assert.equal(canRemember({ mode: 'form', secretKeys: [] }), true);
    assert.equal(canRemember({ mode: 'form', secretKeys: ['password'] }), false);
    assert.equal(canRemember({ mode: 'url', secretKeys: [] }), false);
    assert.equal(canRemember({ mode: 'sampling', secretKeys: [] }), false);
  });
});

void describe('stored answers', () => {
  void it('round-trips through the stored form', () => {
    const a = { ...answer(), content: { name: 'Ada', n: 3, ok: true, tags: ['x'] }, fieldKeys: ['name', 'n', 'ok', 'tags'] };
    const read = readStore(structuredClone(writeStore([{ ...a, scope: 'workspace' }])));
    assert.deepEqual(read, { kind: 'ok', answers: [{ ...a, scope: 'workspace' }] });
  });

  void it('nothing stored is empty, not corrupt', () => {
    assert.deepEqual(readStore(undefined), { kind: 'empty' });
  });

  void it('an older (or newer) version is discarded whole', () => {
    assert.deepEqual(readStore({ version: 0, answers: [] }), { kind: 'discard', reason: 'otherVersion' });
    assert.deepEqual(readStore({ version: STORE_VERSION + 1, answers: [] }), { kind: 'discard', reason: 'otherVersion' });
  });

  void it('a corrupt store is discarded whole, even when only one answer is bad', () => {
    const good = answer();
    const cases: unknown[] = [
      'not an object',
      [],
      { answers: [] },
      { version: STORE_VERSION },
      { version: STORE_VERSION, answers: {} },
      { version: STORE_VERSION, answers: [good, { ...good, fingerprint: 'short' }] },
      { version: STORE_VERSION, answers: [{ ...good, content: { x: { nested: 1 } } }] },
      { version: STORE_VERSION, answers: [{ ...good, content: { x: Number.NaN } }] },
      { version: STORE_VERSION, answers: [{ ...good, server: '' }] },
      { version: STORE_VERSION, answers: [{ ...good, savedAt: '1000' }] },
      { version: STORE_VERSION, answers: [good, good] },
    ];
    for (const c of cases) assert.deepEqual(readStore(c), { kind: 'discard', reason: 'corrupt' }, JSON.stringify(c));
  });
});

void describe('AnswerMemory', () => {
  void it('recalls only for the same server and fingerprint', async () => {
    const m = new AnswerMemory(fakeState(), () => assert.fail('no warning'), here);
    const a = answer();
    await m.remember(a, 'session');
    assert.equal(m.recall('fixture', a.fingerprint)?.message, 'Deploy to staging?');
    assert.equal(m.recall('other', a.fingerprint), undefined);
    assert.equal(m.recall('fixture', questionFingerprint('fixture', 'Deploy to staging? ', confirm)), undefined);
  });

  void it('session answers stay in memory; workspace answers go to the state and come back in a new session', async () => {
    const state = fakeState({ unrelated: 42 });
    const m = new AnswerMemory(state, () => assert.fail('no warning'), here);
    const s = answer({ message: 'For now?' });
    await m.remember({ ...s, fingerprint: questionFingerprint('fixture', 'For now?', confirm) }, 'session');
    assert.equal(state.writes, 0, 'a session answer is never written');
    const w = answer();
    await m.remember(w, 'workspace');
    const next = new AnswerMemory(state, () => assert.fail('no warning'), here);
    assert.deepEqual(
      next.list().map((a) => [a.message, a.scope]),
      [['Deploy to staging?', 'workspace']],
    );
    assert.equal(state.data.get('unrelated'), 42);
  });

  void it('remembering again in the other scope moves the answer; forgetting removes it from the state', async () => {
    const state = fakeState();
    const m = new AnswerMemory(state, () => undefined, here);
    const a = answer();
    await m.remember(a, 'workspace');
    await m.remember({ ...a, savedAt: 2000 }, 'session');
    assert.deepEqual(
      m.list().map((x) => x.scope),
      ['session'],
    );
    assert.equal(state.data.has(MEMORY_KEY), false, 'no longer in the workspace');
    await m.remember(a, 'workspace');
    assert.equal(await m.forget(a.fingerprint), true);
    assert.equal(await m.forget(a.fingerprint), false);
    assert.equal(state.data.has(MEMORY_KEY), false);
  });

  void it('forgetAll by server', async () => {
    const m = new AnswerMemory(fakeState(), () => undefined, here);
    const a = answer();
    const b = answer({ server: 'other', fingerprint: questionFingerprint('other', 'Deploy to staging?', confirm) });
    await m.remember(a, 'workspace');
    await m.remember(b, 'session');
    assert.equal(await m.forgetAll('other'), 1);
    assert.deepEqual(
      m.list().map((x) => x.server),
      ['fixture'],
    );
    assert.equal(await m.forgetAll(), 1);
    assert.equal(m.size, 0);
  });

  void it('a corrupt or older store: one warning, the store removed, other state untouched, memory usable', async () => {
    for (const bad of [{ version: 0, answers: [answer()] }, { version: STORE_VERSION, answers: [{ junk: true }] }, 'garbage']) {
      const state = fakeState({ [MEMORY_KEY]: bad, 'mcpElicitation.routes': ['r'] });
      const warnings: string[] = [];
      const m = new AnswerMemory(state, (r) => warnings.push(r), here);
      await Promise.resolve();
      assert.equal(warnings.length, 1);
      assert.equal(m.size, 0);
      assert.equal(state.data.has(MEMORY_KEY), false, 'the bad store is gone');
      assert.deepEqual(state.data.get('mcpElicitation.routes'), ['r']);
      await m.remember(answer(), 'workspace');
      assert.equal(new AnswerMemory(state, () => assert.fail('no second warning'), here).size, 1);
    }
  });

  void it('a server of that name at another destination is not answered from memory; back where it was, it is (issue 41)', async () => {
    let where = DEST;
    const state = fakeState();
    const m = new AnswerMemory(
      state,
      () => assert.fail('no warning'),
      () => where,
    );
    const a = answer();
    await m.remember(a, 'workspace');
    where = '["remote","https://proxy.attacker.example/mcp"]';
    assert.equal(m.recall('fixture', a.fingerprint), undefined, 'another URL');
    where = '["stdio","./run.sh",[]]';
    assert.equal(m.recall('fixture', a.fingerprint), undefined, 'now a command');
    assert.equal(
      new AnswerMemory(
        state,
        () => assert.fail('no warning'),
        () => where,
      ).recall('fixture', a.fingerprint),
      undefined,
    );
    where = DEST;
    assert.equal(m.recall('fixture', a.fingerprint)?.message, 'Deploy to staging?');
  });

  void it('a server with no known destination gets nothing remembered or recalled', async () => {
    const m = new AnswerMemory(
      fakeState(),
      () => assert.fail('no warning'),
      () => undefined,
    );
    const a = answer();
    await m.remember(a, 'workspace');
    assert.equal(m.size, 0);
    assert.equal(m.recall('fixture', a.fingerprint), undefined);
  });

  void it('answers of the earlier store (version 1, no destinations) are dropped, never applied', async () => {
    const { destination: _, ...old } = answer();
    const state = fakeState({ [MEMORY_KEY]: { version: 1, answers: [old] } });
    const warnings: string[] = [];
    const m = new AnswerMemory(state, (r) => warnings.push(r), here);
    await Promise.resolve();
    assert.deepEqual(warnings, ['noDestination']);
    assert.equal(m.recall('fixture', old.fingerprint), undefined);
    assert.equal(m.size, 0);
    assert.equal(state.data.has(MEMORY_KEY), false);
  });

  void it('keeps at most MAX_REMEMBERED per scope, dropping the oldest', async () => {
    const m = new AnswerMemory(fakeState(), () => undefined, here);
    for (let i = 0; i <= MAX_REMEMBERED; i++) {
      const message = `q${i}`;
      await m.remember(answer({ message, savedAt: i, fingerprint: questionFingerprint('fixture', message, confirm) }), 'session');
    }
    assert.equal(m.size, MAX_REMEMBERED);
    assert.equal(m.recall('fixture', questionFingerprint('fixture', 'q0', confirm)), undefined);
    assert.equal(m.list()[0]?.message, `q${MAX_REMEMBERED}`);
  });
});
