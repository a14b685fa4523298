/**
 * Issue 24 item 6: which call a pushed 2025 question belongs to (src/servers/questionLinks.ts).
 * The stream it arrived on says so over Streamable HTTP; otherwise it is inferred only when one
 * request of ours was in flight; cancelling that call closes the question as the call's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_STREAM_LINKS, QuestionLinks } from '../../src/servers/questionLinks';
import { abortedBy, CallCancelled, callScoped } from '../../src/elicitation/callCancel';

void describe('QuestionLinks: the call a pushed question belongs to', () => {
  void it('one call in flight: the question is inferred to be its own; cancelling the call closes it as the call’s', () => {
    const links = new QuestionLinks();
    links.sent(7, 'tools/call');
    const q = links.question('s1');
    assert.equal(q.call, 7);
    assert.ok(q.call !== undefined && q.kind === 'inferred');
    assert.equal(links.cancelled(7, 'tools/call'), 1);
    assert.ok(q.signal.aborted);
    assert.ok(q.signal.reason instanceof CallCancelled);
    assert.equal(abortedBy(q.signal), 'callCancel');
    assert.equal(links.inFlight, 0, 'a cancelled request no longer waits');
  });

  void it('two requests in flight: ambiguous, linked to nothing; cancelling either closes nothing', () => {
    const links = new QuestionLinks();
    links.sent(1, 'tools/call');
    links.sent(2, 'tools/call');
    const q = links.question('s1');
    assert.deepEqual(q, { call: undefined, inFlight: 2 });
    assert.equal(links.cancelled(1), 0);
    assert.equal(links.cancelled(2), 0);
  });

  void it('a lookup in flight makes it ambiguous too; none in flight links to nothing', () => {
    const links = new QuestionLinks();
    assert.deepEqual(links.question('s0'), { call: undefined, inFlight: 0 });
    links.sent(1, 'tools/call');
    links.sent(2, 'tools/list');
    assert.equal(links.question('s1').call, undefined);
    links.answered(2);
    assert.equal(links.question('s2').call, 1, 'once the lookup is answered, one call is left');
  });

  void it('the link is decided when the question arrives: a call started later does not make it ambiguous, an earlier call’s question is not the later one’s', () => {
    const links = new QuestionLinks();
    links.sent(1, 'tools/call');
    const first = links.question('s1');
    assert.ok(first.call !== undefined);
    links.sent(2, 'tools/call');
    assert.equal(links.cancelled(2), 0, 'the question came while only call 1 was in flight');
    assert.equal(first.signal.aborted, false);
    assert.equal(links.cancelled(1), 1);
    assert.equal(first.signal.aborted, true);
  });

  void it('HTTP: the stream a question arrived on names its call, however many are in flight', () => {
    const links = new QuestionLinks();
    links.sent(1, 'tools/call');
    links.sent(2, 'tools/call');
    links.arrivedOn('s9', 2);
    const q = links.question('s9');
    assert.ok(q.call === 2 && q.kind === 'stream');
    assert.equal(links.cancelled(1), 0);
    assert.equal(links.cancelled(2), 1);
    assert.equal(abortedBy(q.signal), 'callCancel');
  });

  void it('HTTP: arrivals never read back (a hostile server’s flood) are bounded; the newest still link to their call', () => {
    const links = new QuestionLinks();
    links.sent(1, 'tools/call');
    links.sent(2, 'tools/call');
    links.arrivedOn('first', 2);
    for (let i = 0; i < 100_000; i++) links.arrivedOn(`flood-${i}`, 2);
    links.arrivedOn('latest', 2);
    const latest = links.question('latest');
    assert.ok(latest.call === 2 && latest.kind === 'stream', 'a question that just arrived still names its call');
    const first = links.question('first');
    assert.deepEqual(first, { call: undefined, inFlight: 2 }, 'the oldest arrival was let go: two calls in flight, so no link');
    const recent = links.question(`flood-${100_000 - MAX_STREAM_LINKS + 2}`);
    assert.ok(recent.call === 2, 'the newest arrivals are kept');
  });

  void it('a question that is over is forgotten: a later cancel of its call closes nothing', () => {
    const links = new QuestionLinks();
    links.sent(3, 'tools/call');
    const q = links.question('s1');
    assert.ok(q.call !== undefined);
    q.dispose();
    assert.equal(links.cancelled(3), 0);
    assert.equal(q.signal.aborted, false);
  });

  void it('read from the wire: our request waits, our notifications/cancelled closes its questions; responses and other notifications change nothing', () => {
    const links = new QuestionLinks();
    assert.equal(links.outgoing({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 't' } }), undefined);
    assert.equal(links.outgoing({ jsonrpc: '2.0', id: 's1', result: {} }), undefined, 'our answer to the server');
    assert.equal(
      links.outgoing({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }),
      undefined,
    );
    const q = links.question('s2');
    assert.equal(q.call, 4);
    assert.deepEqual(links.outgoing({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4, reason: 'x' } }), {
      id: 4,
      method: 'tools/call',
      closed: 1,
    });
    assert.equal(abortedBy((q as { signal: AbortSignal }).signal), 'callCancel');
    assert.equal(links.inFlight, 0);
  });

  void it('an answered call is no longer in flight', () => {
    const links = new QuestionLinks();
    links.sent(1, 'tools/call');
    links.answered(1);
    assert.equal(links.question('s1').call, undefined);
  });
});

void describe('callCancel: a question ended by its call, not by the server', () => {
  void it('callScoped aborts with CallCancelled when the call aborts, at once if it already has; dispose stops listening', () => {
    const call = new AbortController();
    const scoped = callScoped(call.signal, 'book');
    assert.equal(scoped.signal.aborted, false);
    call.abort();
    assert.equal(abortedBy(scoped.signal), 'callCancel');
    assert.match(String((scoped.signal.reason as Error).message), /book/);
    assert.equal(abortedBy(callScoped(call.signal).signal), 'callCancel');
    const later = new AbortController();
    const gone = callScoped(later.signal);
    gone.dispose();
    later.abort();
    assert.equal(gone.signal.aborted, false);
  });

  void it('any other abort is the server’s', () => {
    const c = new AbortController();
    c.abort('the server cancelled');
    assert.equal(abortedBy(c.signal), 'serverCancel');
  });
});
