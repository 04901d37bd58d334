import * as assert from 'node:assert/strict';
import type { ChatRequest } from '../../../../../src/core/service/alphaClient';
import type { StoredMessage } from '../../../../../src/core/chat/conversation/conversation';
import { runReply, type ReplySource } from '../../../../../src/core/chat/runs/replyRunner';
import { ThrottledTask } from '../../../../../src/core/chat/runs/throttledTask';
import { fakeTimers } from '../../../../support/fakeTimers';
import { ServiceError } from '../../../../../src/core/service/errors';

function reply(): StoredMessage {
  return { id: 'r', role: 'assistant', content: '', createdAt: 0 };
}

const request: ChatRequest = { model: 'alpha', messages: [{ role: 'user', content: 'hi' }] };

/** A source that yields `pieces`, then ends, throws `end`, or waits for the abort. */
function source(pieces: string[], end?: Error | 'hang'): ReplySource & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    async *stream(req, signal) {
      requests.push(req);
      for (const p of pieces) {
        await new Promise((r) => setImmediate(r));
        if (signal?.aborted) {
          return;
        }
        yield p;
      }
      if (end === 'hang') {
        if (!signal?.aborted) {
          await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve()));
        }
        return;
      }
      if (end) {
        throw end;
      }
    },
    async complete(req) {
      requests.push(req);
      if (end instanceof Error) {
        throw end;
      }
      return pieces.join('');
    },
  };
}

describe('chat core: running a reply', () => {
  it('appends every delta in order and ends done', async () => {
    const r = reply();
    const seen: string[] = [];
    const outcome = await runReply({
      source: source(['Hé', 'llo ', '🚀']),
      request,
      stream: true,
      reply: r,
      signal: new AbortController().signal,
      onDelta: (t) => seen.push(t),
    });
    assert.deepEqual(outcome, { status: 'done' });
    assert.equal(r.content, 'Héllo 🚀');
    assert.deepEqual(seen, ['Hé', 'llo ', '🚀']);
    assert.equal(r.status, 'done');
  });

  it('Stop ends it quietly as stopped and keeps what arrived', async () => {
    const r = reply();
    const controller = new AbortController();
    const outcome = await runReply({
      source: source(['one ', 'two'], 'hang'),
      request,
      stream: true,
      reply: r,
      signal: controller.signal,
      onDelta: (t) => {
        if (t === 'two') {
          controller.abort();
        }
      },
    });
    assert.deepEqual(outcome, { status: 'stopped' });
    assert.equal(r.content, 'one two');
    assert.equal(r.status, 'stopped');
    assert.equal(r.error, undefined);
  });

  it('a reply marked interrupted while the window closes stays interrupted when the abort lands', async () => {
    const r = reply();
    const controller = new AbortController();
    const outcome = await runReply({
      source: source(['one ', 'two'], 'hang'),
      request,
      stream: true,
      reply: r,
      signal: controller.signal,
      onDelta: (t) => {
        if (t === 'two') {
          r.status = 'interrupted';
          controller.abort();
        }
      },
    });
    assert.deepEqual(outcome, { status: 'stopped' });
    assert.equal(r.status, 'interrupted');
    assert.equal(r.content, 'one two');
  });

  it('a cut stream keeps its text and records the error with its action', async () => {
    const r = reply();
    const cut = new ServiceError('cut', 'The reply was cut off: the connection closed.', { keyKind: 'chat' });
    const outcome = await runReply({
      source: source(['partial'], cut),
      request,
      stream: true,
      reply: r,
      signal: new AbortController().signal,
      onDelta: () => undefined,
      now: () => 42,
    });
    assert.equal(outcome.status, 'error');
    assert.equal(r.content, 'partial');
    assert.equal(r.status, 'error');
    assert.equal(r.error?.kind, 'cut');
    assert.equal(r.error?.action, 'retry');
    assert.equal(r.error?.at, 42);
    assert.match(r.error?.message ?? '', /^The reply was cut off/);
  });

  it('a 401 names the chat key and offers to set it; a 429 carries Retry-After', async () => {
    const r = reply();
    await runReply({
      source: source(
        [],
        new ServiceError('badKey', 'The service rejected your chat API key (401).', { status: 401, keyKind: 'chat' }),
      ),
      request,
      stream: true,
      reply: r,
      signal: new AbortController().signal,
      onDelta: () => undefined,
    });
    assert.equal(r.error?.action, 'setChatKey');
    assert.match(r.error?.message ?? '', /chat API key/);
    const limited = reply();
    await runReply({
      source: source(
        [],
        new ServiceError('rateLimited', 'Slow down.', { status: 429, retryAfterSeconds: 2, keyKind: 'chat' }),
      ),
      request,
      stream: true,
      reply: limited,
      signal: new AbortController().signal,
      onDelta: () => undefined,
    });
    assert.equal(limited.error?.retryAfterSeconds, 2);
    assert.equal(limited.error?.action, 'retry');
  });

  it('without streaming asks for the whole reply; an empty one is an error, anything thrown is readable', async () => {
    const r = reply();
    await runReply({
      source: source(['whole']),
      request,
      stream: false,
      reply: r,
      signal: new AbortController().signal,
      onDelta: () => undefined,
    });
    assert.equal(r.content, 'whole');
    assert.equal(r.status, 'done');
    const empty = reply();
    await runReply({
      source: source([]),
      request,
      stream: true,
      reply: empty,
      signal: new AbortController().signal,
      onDelta: () => undefined,
    });
    assert.equal(empty.status, 'error');
    assert.match(empty.error?.message ?? '', /empty reply/);
    const odd = reply();
    await runReply({
      source: source([], new Error('boom')),
      request,
      stream: true,
      reply: odd,
      signal: new AbortController().signal,
      onDelta: () => undefined,
    });
    assert.equal(odd.error?.message, 'boom');
    assert.equal(odd.error?.action, 'retry');
  });
});

const tick = () => new Promise((r) => setImmediate(r));

describe('chat core: throttled saves', () => {
  it('runs at once, then at most once per interval, always once more after the last request', async () => {
    const timers = fakeTimers();
    let runs = 0;
    const task = new ThrottledTask(
      async () => void runs++,
      500,
      (e) => assert.fail(String(e)),
      timers,
    );
    task.schedule();
    await tick();
    assert.equal(runs, 1);
    for (let i = 0; i < 10; i++) {
      task.schedule();
      timers.advance(40);
      await tick();
    }
    assert.equal(runs, 1, 'no run inside the interval');
    timers.advance(100);
    await tick();
    assert.equal(runs, 2, 'the trailing run');
    timers.advance(1000);
    await tick();
    assert.equal(runs, 2, 'nothing more was asked');
  });

  it('flush runs a pending request now and waits for it; cancel and dispose drop pending runs', async () => {
    const timers = fakeTimers();
    let runs = 0;
    const task = new ThrottledTask(
      async () => void runs++,
      500,
      (e) => assert.fail(String(e)),
      timers,
    );
    task.schedule();
    await tick();
    task.schedule();
    await task.flush();
    assert.equal(runs, 2);
    task.schedule();
    task.cancel();
    timers.advance(1000);
    await tick();
    assert.equal(runs, 2);
    task.schedule();
    await tick();
    assert.equal(runs, 3, 'a cancelled task still runs later requests');
    task.dispose();
    task.schedule();
    timers.advance(1000);
    await task.flush();
    assert.equal(runs, 3);
  });

  it('reports a failed run and keeps working', async () => {
    const errors: unknown[] = [];
    let fail = true;
    let runs = 0;
    const task = new ThrottledTask(
      async () => {
        runs++;
        if (fail) {
          throw new Error('disk full');
        }
      },
      0,
      (e) => errors.push(e),
    );
    task.schedule();
    await task.flush();
    fail = false;
    task.schedule();
    await task.flush();
    assert.equal(runs, 2);
    assert.equal(errors.length, 1);
  });
});
