// Server-author lint (enumNames, non-string titles, twin labels) is for the log and Preview
// Elicitation Form; the person answering sees only what is a risk to them. Through the real broker
// with a presenter that records what it was asked to show.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ElicitationBroker } from '../../src/elicitation/broker';
import type { FormPrompt } from '../../src/elicitation/presenter';
import { FakePresenter } from './support/fakePresenter';
import { askerFor } from '../../src/elicitation/asker';

function setup(): { broker: ElicitationBroker; prompts: () => FormPrompt[]; log: string[] } {
  const log: string[] = [];
  const presenter = new FakePresenter({ form: () => ({ action: 'decline' }) });
  const prompts = (): FormPrompt[] => presenter.forms.map((f) => f.prompt);
  const broker = new ElicitationBroker({
    presenter,
    gate: () => ({ outcome: 'show', decidedBy: 'user', policy: 'allow' }),
    settings: () => ({ sensitiveFields: 'warn', allowHttpLoopback: false, urlExpiryMs: 0 }),
    log: { info: (m) => log.push(m), warn: (m) => log.push(m) },
  });
  return { broker, prompts, log };
}

const server = askerFor('reference', { name: 'reference', version: '1.0.0' });
const extra = { signal: new AbortController().signal, requestId: 1 };

void describe('schema notes reach the log, not the person answering', () => {
  void it('a form with enumNames, a non-string title and twin labels is shown without those notes; the log has each', async () => {
    const { broker, prompts, log } = setup();
    const result = await broker.handle(
      server,
      {
        message: 'Pick',
        requestedSchema: {
          type: 'object',
          properties: {
            color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
            size: {
              type: 'string',
              title: 7,
              oneOf: [
                { const: 's', title: 'Same' },
                { const: 'm', title: 'Same' },
              ],
            },
          },
        },
      },
      extra,
    );
    assert.deepEqual(result, { action: 'decline' });
    assert.equal(prompts().length, 1, 'the form is still shown');
    assert.deepEqual(prompts()[0]?.warnings, []);
    const notes = log.filter((l) => l.includes('schema note'));
    assert.equal(notes.length, 3, log.join('\n'));
    assert.match(
      notes[0] ?? '',
      /^\[reference\] schema note: requestedSchema\.properties\.color: enumNames is deprecated; use oneOf with const and title$/,
    );
    assert.match(notes[1] ?? '', /properties\.size: title is not a string and is ignored/);
    assert.match(notes[2] ?? '', /properties\.size: several options are labelled "Same"/);
  });

  void it('links in form text and secret-like fields still warn the person answering', async () => {
    const { broker, prompts } = setup();
    await broker.handle(
      server,
      {
        message: 'Sign in at https://evil.example/login',
        requestedSchema: {
          type: 'object',
          properties: { password: { type: 'string' }, plan: { type: 'string', enum: ['a'], enumNames: ['A'] } },
        },
      },
      extra,
    );
    assert.deepEqual(
      prompts()[0]?.warnings.map((w) => w.code),
      ['linkInMessage', 'secretField'],
    );
  });
});
