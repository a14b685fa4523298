/**
 * Each sentence is written once, keyed, and rendered in the language its reader gets
 * (issue 20, item 4): the form's validation messages and schema notes
 * (src/elicitation/form/sentences.ts), and why a call ended without a result
 * (src/servers/sentences.ts). Servers, agents and the log get English; the window gets the same
 * sentence through the localizer it injects (`vscode.l10n`). The English pinned here is what left
 * the host before the twins were folded, byte for byte.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { askerFor } from '../../src/elicitation/asker';
import { ElicitationBroker } from '../../src/elicitation/broker';
import type { ValidationIssue } from '../../src/elicitation/form/issues';
import type { SchemaNote } from '../../src/elicitation/form/schemaRules';
import { issueText, schemaNoteText } from '../../src/elicitation/form/sentences';
import { Connection, type ConnectionDeps } from '../../src/servers/connection';
import {
  BrowserStepEndedError,
  CallCancelledError,
  MalformedAnswerError,
  MissingCapabilityError,
  RoundLimitError,
  SampleRefusedError,
  UndeclaredInputError,
  VersionGoneError,
  type MrtrError,
} from '../../src/servers/mrtr/errors';
import { serverSentence, type ServerSentence } from '../../src/servers/sentences';
import { describeState } from '../../src/servers/serverState';
import { english, type Localize } from '../../src/shared/localize';
import { FakeLaunches, MemoryLog, RecordingSampler, RecordingSink, stdioDef } from './support/fakeLaunches';
import { FakePresenter } from './support/fakePresenter';
import { bundleLocale } from './support/localize';

/** Every validation code with what a -32602 reason said for it (the old `issueEnglish`). */
const ISSUES: Record<ValidationIssue['code'], ReadonlyArray<readonly [ValidationIssue, string]>> = {
  required: [[{ code: 'required' }, 'Required']],
  type: [
    [{ code: 'type', expected: 'text' }, 'Must be text'],
    [{ code: 'type', expected: 'number' }, 'Must be a number'],
    [{ code: 'type', expected: 'integer' }, 'Must be a whole number'],
    [{ code: 'type', expected: 'boolean' }, 'Must be true or false'],
    [{ code: 'type', expected: 'option' }, 'Must be one of the listed options'],
    [{ code: 'type', expected: 'options' }, 'Must be a list of options'],
  ],
  minimum: [[{ code: 'minimum', limit: 3 }, 'Must be at least 3']],
  maximum: [[{ code: 'maximum', limit: 120 }, 'Must be at most 120']],
  minLength: [
    [{ code: 'minLength', limit: 1 }, 'Must be at least 1 character'],
    [{ code: 'minLength', limit: 3 }, 'Must be at least 3 characters'],
  ],
  maxLength: [
    [{ code: 'maxLength', limit: 1 }, 'Must be at most 1 character'],
    [{ code: 'maxLength', limit: 40 }, 'Must be at most 40 characters'],
  ],
  minItems: [[{ code: 'minItems', limit: 2 }, 'Pick at least 2']],
  maxItems: [[{ code: 'maxItems', limit: 1 }, 'Pick at most 1']],
  format: [
    [{ code: 'format', format: 'email' }, 'Must be a valid email address'],
    [{ code: 'format', format: 'uri' }, 'Must be a valid URI, such as https://example.com/path'],
    [{ code: 'format', format: 'date' }, 'Must be a valid date (YYYY-MM-DD)'],
    [{ code: 'format', format: 'date-time' }, 'Must be a valid date and time, such as 2024-05-01T12:00:00Z'],
    [{ code: 'format', format: 'ipv4' }, 'Has the wrong format'],
  ],
  pattern: [
    [{ code: 'pattern', pattern: '^[a-z]{2}$' }, 'Must match the pattern ^[a-z]{2}$'],
    [{ code: 'pattern', pattern: undefined }, 'Does not match the required pattern'],
  ],
  enum: [[{ code: 'enum' }, 'Must be one of the listed options']],
  notInList: [[{ code: 'notInList' }, 'Contains an option that is not in the list']],
  uniqueItems: [[{ code: 'uniqueItems' }, 'Each option can be picked only once']],
  tooComplex: [[{ code: 'tooComplex' }, "Could not be checked in time: the server's pattern is too complex"]],
  unexpectedFields: [[{ code: 'unexpectedFields', keys: ['admin', '{0}'] }, 'Unexpected field “admin”; Unexpected field “{0}”']],
  unknownField: [[{ code: 'unknownField', key: 'nope' }, 'Unknown field “nope”']],
  notANumber: [
    [{ code: 'notANumber', integer: true }, 'Must be a whole number, such as 42'],
    [{ code: 'notANumber', integer: false }, 'Must be a number, such as 42 or 3.5'],
  ],
  numberTooLarge: [[{ code: 'numberTooLarge' }, 'Number is too large']],
  fraction: [[{ code: 'fraction' }, 'Must be a whole number, without a fractional part']],
  inexact: [[{ code: 'inexact' }, 'Number is too large to be exact']],
  noSuchOption: [
    [{ code: 'noSuchOption', options: ['Alpha', 'Beta'], more: true, part: undefined }, 'Must be one of: Alpha, Beta, …'],
    [{ code: 'noSuchOption', options: ['Alpha', 'Beta'], more: false, part: 'Gamma' }, '“Gamma” is not one of: Alpha, Beta'],
  ],
  other: [[{ code: 'other', detail: 'must be equal to constant' }, 'must be equal to constant']],
};

/** Every schema note with what the log said for it (the old `describeSchemaNote`). */
const NOTES: Record<SchemaNote['code'], readonly [SchemaNote, string]> = {
  enumNamesDeprecated: [
    { code: 'enumNamesDeprecated', path: 'requestedSchema.properties.color' },
    'requestedSchema.properties.color: enumNames is deprecated; use oneOf with const and title',
  ],
  notAString: [
    { code: 'notAString', path: 'requestedSchema.properties.size', keyword: 'title' },
    'requestedSchema.properties.size: title is not a string and is ignored',
  ],
  duplicateLabel: [
    { code: 'duplicateLabel', path: 'requestedSchema.properties.size', label: '"Same"' },
    'requestedSchema.properties.size: several options are labelled "Same"',
  ],
};

/**
 * Every sentence of the servers table with the English it had before: the message its error
 * carried, or the state the log and the public API described. A malformed answer and a refused
 * sample are the window's wording: their English never left the host untranslated.
 */
const SERVER_SENTENCES: Record<ServerSentence['key'], ReadonlyArray<readonly [ServerSentence, string]>> = {
  notRunning: [[{ key: 'notRunning', server: 'fake' }, 'Server "fake" is not running.']],
  untrusted: [[{ key: 'untrusted' }, 'not started: workspace is not trusted']],
  roundLimit: [
    [
      { key: 'roundLimit', server: 'mrtr-modern', call: 'forever', rounds: 10 },
      'Server "mrtr-modern" still asked for input after 10 rounds of forever; the call was stopped.',
    ],
  ],
  undeclaredInput: [
    [
      { key: 'undeclaredInput', server: 'mrtr-raw', call: 'undeclared', methods: ['experimental/unknown', 'roots/list'], firstKey: 'x' },
      'Server "mrtr-raw" asked undeclared for input this client does not offer (experimental/unknown, roots/list; first key "x"); nothing was shown.',
    ],
  ],
  missingCapability: [
    [
      { key: 'missingCapability', server: 'one', call: 'tools/list', capabilities: ['sampling', 'roots'] },
      'Server "one" needs a capability this client does not offer for tools/list: sampling, roots.',
    ],
    [
      { key: 'missingCapability', server: 'one', call: 'tools/list', capabilities: [] },
      'Server "one" needs a capability this client does not offer for tools/list: unspecified.',
    ],
  ],
  versionGone: [
    [
      { key: 'versionGone', server: 'mrtr-raw', call: 'versionGone', supported: ['2027-01-01'] },
      'Server "mrtr-raw" no longer supports the protocol revision in use (it supports 2027-01-01); reconnecting.',
    ],
    [
      { key: 'versionGone', server: 'mrtr-raw', call: 'versionGone', supported: [] },
      'Server "mrtr-raw" no longer supports the protocol revision in use (it supports none it named); reconnecting.',
    ],
  ],
  callCancelled: [[{ key: 'callCancelled', server: 'mrtr-modern', call: 'form' }, 'form on "mrtr-modern" was cancelled.']],
  browserStepEnded: [
    [
      { key: 'browserStepEnded', server: 'fixture', call: 'login', outcome: 'dismissed' },
      'The browser step for login on "fixture" ended (dismissed); the call was stopped.',
    ],
  ],
  malformedAnswer: [
    [
      { key: 'malformedAnswer', server: 'raw', call: 'outRoundWithResult', fault: 'roundWithResult' },
      'Server "raw" answered outRoundWithResult with a request for input that also carries a result (structuredContent); nothing was shown and the call was stopped.',
    ],
    [
      { key: 'malformedAnswer', server: 'raw', call: 'outEmptyRound', fault: 'emptyRound' },
      'Server "raw" answered outEmptyRound with a request for input that asks for nothing (no input requests, no requestState); the call was stopped.',
    ],
    [
      { key: 'malformedAnswer', server: 'raw', call: 'outResultWithRequests', fault: 'resultWithRequests' },
      'Server "raw" answered outResultWithRequests with a result that still asks for input (inputRequests); nothing was shown and the call was stopped.',
    ],
  ],
  sampleRefused: [
    [
      { key: 'sampleRefused', server: 'os', call: 'ask', reason: 'No language model is available in VS Code' },
      'Server "os" asked ask for a language model reply, which was not given (No language model is available in VS Code); the call was stopped.',
    ],
  ],
  taskExpired: [
    [
      { key: 'taskExpired', server: 'tasks', call: 'never', ttlMs: 1500 },
      'The task of never on "tasks" did not finish within its time to live (1500 ms); it was cancelled.',
    ],
  ],
  taskEnded: [
    [
      { key: 'taskEnded', server: 'tasks', call: 'fails', outcome: 'failed', reason: 'disk full' },
      'The task of fails on "tasks" failed: disk full',
    ],
    [
      { key: 'taskEnded', server: 'tasks', call: 'x', outcome: 'cancelled', reason: 'bye' },
      'The task of x on "tasks" was cancelled by the server: bye',
    ],
    [
      { key: 'taskEnded', server: 'tasks', call: 'x', outcome: 'malformed', reason: 'odd' },
      'Server "tasks" answered the task of x with something that cannot be used (odd); the call was stopped.',
    ],
  ],
};

/** A localizer that marks what it rendered, so a test sees the window's text came through it. */
function marking(): { l10n: Localize; messages: string[] } {
  const messages: string[] = [];
  return {
    messages,
    l10n: {
      t: (message, ...args) => {
        messages.push(message);
        return `«${english.t(message, ...args)}»`;
      },
    },
  };
}

/** What a Connection needs to be made; its transport is the real one unless a test passes another. */
function connectionDeps(): ConnectionDeps {
  return {
    log: new MemoryLog(),
    clientInfo: { name: 'test-host', version: '0.0.0' },
    sink: new RecordingSink(),
    sampler: new RecordingSampler(),
    onGaveUp: () => undefined,
  };
}

const extracted = Object.keys(JSON.parse(readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>);

void describe('sentences written once: English for servers, the injected language for the window', () => {
  void it('every validation message renders in English exactly as -32602 reasons and the log said it', () => {
    for (const [issue, said] of Object.values(ISSUES).flat()) assert.equal(issueText(issue, english), said, JSON.stringify(issue));
  });

  void it('every schema note renders in English exactly as the log said it', () => {
    for (const [note, said] of Object.values(NOTES)) assert.equal(schemaNoteText(note, english), said);
  });

  void it('every sentence of the servers table renders in English exactly as its error or the state said it', () => {
    for (const [sentence, said] of Object.values(SERVER_SENTENCES).flat()) assert.equal(serverSentence(sentence, english), said);
    assert.equal(describeState({ kind: 'untrusted' }), 'not started: workspace is not trusted', 'the log and the public API');
  });

  void it('a server whose default breaks its own constraints is answered -32602 in English', async () => {
    const log: string[] = [];
    const broker = new ElicitationBroker({
      presenter: new FakePresenter({ form: () => ({ action: 'decline' }) }),
      gate: () => ({ outcome: 'show', decidedBy: 'user', policy: 'allow' }),
      settings: () => ({ sensitiveFields: 'warn', allowHttpLoopback: false, urlExpiryMs: 0 }),
      log: { info: (m) => log.push(m), warn: (m) => log.push(m) },
    });
    const requestedSchema = { type: 'object', properties: { name: { type: 'string', minLength: 3, default: 'ab' } } };
    await assert.rejects(
      broker.handle(
        askerFor('s', { name: 's', version: '1.0.0' }),
        { message: 'Name?', requestedSchema },
        {
          signal: new AbortController().signal,
          requestId: 1,
        },
      ),
      (e: unknown) => {
        assert.equal((e as { code?: unknown }).code, -32602);
        assert.equal(
          (e as Error).message,
          `requestedSchema.properties.name: default "ab" breaks the field's own constraints (Must be at least 3 characters)`,
        );
        return true;
      },
    );
  });

  void it('each call error carries its sentence, and its message is the English of it', () => {
    const errors: MrtrError[] = [
      new RoundLimitError('mrtr-modern', 'forever', 10),
      new UndeclaredInputError('mrtr-raw', 'undeclared', 'x', 'experimental/unknown', ['experimental/unknown', 'roots/list']),
      new MissingCapabilityError('one', 'tools/list', ['sampling', 'roots']),
      new MissingCapabilityError('one', 'tools/list', []),
      new VersionGoneError('mrtr-raw', 'versionGone', ['2027-01-01']),
      new VersionGoneError('mrtr-raw', 'versionGone', []),
      new CallCancelledError('mrtr-modern', 'form'),
      new BrowserStepEndedError('fixture', 'login', 'dismissed'),
      new MalformedAnswerError('raw', 'outEmptyRound', 'emptyRound'),
      new SampleRefusedError('os', 'ask', 'llm', 'No language model is available in VS Code'),
    ];
    const said = new Map(
      Object.values(SERVER_SENTENCES)
        .flat()
        .map(([s, text]) => [JSON.stringify(s), text]),
    );
    for (const err of errors) {
      assert.equal(err.message, said.get(JSON.stringify(err.sentence)), err.name);
      assert.equal(err.message, serverSentence(err.sentence, english));
    }
  });

  void it('a gateway lookup that meets -32021 fails with the English sentence, names and all', async () => {
    const launches = new FakeLaunches();
    const conn = new Connection(stdioDef('one'), { ...connectionDeps(), createTransport: launches.create });
    try {
      await conn.start();
      await assert.rejects(conn.relay({ method: 'resources/read', params: { uri: 'test://needs-sampling' } }, {}), {
        message: 'Server "one" needs a capability this client does not offer for resources/read: sampling.',
      });
    } finally {
      await conn.shutdown();
    }
  });

  void it('the window renders every sentence through the localizer it injects, from messages the bundle extracts', () => {
    const { l10n, messages } = marking();
    for (const [issue, said] of Object.values(ISSUES).flat()) {
      if (issue.code === 'other') continue; // ajv's own English, passed on as it is
      const shown = issueText(issue, l10n);
      assert.equal(shown.replace(/[«»]/g, ''), said);
      assert.match(shown, /^«.*»$/);
    }
    for (const [note, said] of Object.values(NOTES)) assert.equal(schemaNoteText(note, l10n), `«${said}»`);
    for (const [sentence, said] of Object.values(SERVER_SENTENCES).flat()) assert.equal(serverSentence(sentence, l10n), `«${said}»`);
    const missing = [...new Set(messages)].filter((m) => !extracted.includes(m));
    assert.deepEqual(missing, [], 'each message is a literal that node scripts/l10n.mjs extracts');
  });

  void it('in German, the window gets the translation of the same sentence', () => {
    const de = bundleLocale('de');
    const err = new RoundLimitError('mrtr-modern', 'forever', 10);
    assert.equal(
      serverSentence(err.sentence, de),
      'Server „mrtr-modern“ hat nach 10 Runden von forever immer noch nach Eingaben gefragt; der Aufruf wurde beendet.',
    );
    assert.equal(
      serverSentence(new UndeclaredInputError('mrtr-raw', 'undeclared', 'x', 'roots/list').sentence, de),
      'Server „mrtr-raw“ hat bei undeclared nach einer Eingabe gefragt, die dieser Client nicht anbietet (roots/list; erster Schlüssel „x“); es wurde nichts angezeigt.',
    );
    assert.equal(issueText({ code: 'unknownField', key: 'nope' }, de), 'Unbekanntes Feld „nope“');
    for (const [sentence] of Object.values(SERVER_SENTENCES).flat()) assert.doesNotMatch(serverSentence(sentence, de), /"/);
  });

  void it('a call to a stopped server fails in the language the connection was given, English without one', async () => {
    const deps = connectionDeps();
    const call = (conn: Connection): Promise<unknown> => conn.sendLeg('tools/call', { name: 'echo', arguments: {} }, {}, 'echo');
    const plain = new Connection(stdioDef('fake'), deps);
    const german = new Connection(stdioDef('fake'), { ...deps, l10n: bundleLocale('de') });
    try {
      await assert.rejects(call(plain), { code: -32000, message: 'Server "fake" is not running.' });
      await assert.rejects(call(german), { code: -32000, message: 'Server „fake“ wird nicht ausgeführt.' });
    } finally {
      plain.dispose();
      german.dispose();
    }
  });
});
