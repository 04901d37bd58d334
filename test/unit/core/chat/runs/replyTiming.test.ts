import * as assert from 'node:assert/strict';
import type { ChatRequest } from '../../../../../src/core/service/alphaClient';
import { newConversation, type StoredMessage } from '../../../../../src/core/chat/conversation/conversation';
import { parseConversation } from '../../../../../src/core/chat/conversation/conversationParse';
import { runReply, type ReplySource } from '../../../../../src/core/chat/runs/replyRunner';
import {
  MAX_REPLY_SPAN_MS,
  MIN_RATE_SPAN_MS,
  TimingRecorder,
  parseTiming,
  replySpeed,
  type ReplyTiming,
} from '../../../../../src/core/chat/runs/replyTiming';
import { ConversationEncoder } from '../../../../../src/core/chat/store/conversationEncoder';
import { CONVERSATION_VERSION } from '../../../../../src/core/chat/store/conversationSchema';
import { ServiceError } from '../../../../../src/core/service/errors';
import { setup } from '../../../../support/chatStateHarness';

const SENT = 1_700_000_000_000;
const request: ChatRequest = { model: 'alpha', messages: [{ role: 'user', content: 'hi' }] };

function reply(): StoredMessage {
  return { id: 'r', role: 'assistant', content: '', createdAt: SENT };
}

/** A clock the test moves: `tick(ms)` advances it. */
function manualClock(start = 5_000): { now: () => number; tick: (ms: number) => void } {
  let t = start;
  return { now: () => t, tick: (ms) => (t += ms) };
}

/** A source that moves `clock` by `waits[i]` before each piece (the first wait is the time to the first token). */
function timedSource(
  pieces: string[],
  waits: number[],
  clock: { tick: (ms: number) => void },
  options: { report?: { input: number; output: number }; failAfter?: boolean; abort?: AbortController } = {},
): ReplySource {
  return {
    async *stream(_req, signal, onUsage) {
      if (options.report) {
        onUsage?.(options.report);
      }
      for (const [i, piece] of pieces.entries()) {
        clock.tick(waits[i] ?? 0);
        await Promise.resolve();
        if (signal?.aborted) {
          return;
        }
        yield piece;
      }
      clock.tick(waits[pieces.length] ?? 0);
      if (options.abort) {
        options.abort.abort();
      }
      if (options.failAfter) {
        throw new ServiceError('network', 'The reply was cut off.', { keyKind: 'chat' });
      }
    },
    complete(_req, _signal, onUsage) {
      clock.tick(waits[0] ?? 0);
      if (options.report) {
        onUsage?.(options.report);
      }
      return Promise.resolve(pieces.join(''));
    },
  };
}

async function run(
  source: ReplySource,
  clock: { now: () => number },
  stream = true,
  signal = new AbortController().signal,
): Promise<StoredMessage> {
  const r = reply();
  await runReply({
    source,
    request,
    stream,
    reply: r,
    signal,
    onDelta: () => undefined,
    clock: clock.now,
    now: () => SENT,
  });
  return r;
}

describe('reply timing: first token, tokens per second (src/core/chat/runs/replyTiming)', () => {
  it('records the request sent, the first token and the end, each step a new object (the encoder sees it)', () => {
    const clock = manualClock();
    const seen: ReplyTiming[] = [];
    const recorder = new TimingRecorder((t) => seen.push(t), clock.now, SENT);
    clock.tick(800);
    recorder.token();
    clock.tick(300);
    recorder.token();
    clock.tick(700);
    recorder.end();
    recorder.end();
    recorder.token();
    assert.deepEqual(seen, [
      { sentAt: SENT },
      { sentAt: SENT, firstTokenAt: SENT + 800 },
      { sentAt: SENT, firstTokenAt: SENT + 800, endedAt: SENT + 1800 },
    ]);
    assert.equal(new Set(seen).size, 3);
  });

  it('measures spans on the monotonic clock: a wall clock set back mid-reply changes nothing', () => {
    const clock = manualClock();
    let kept: ReplyTiming | undefined;
    let wall = SENT;
    const recorder = new TimingRecorder((t) => (kept = t), clock.now, wall);
    wall -= 60_000; // the system clock jumps back a minute; the recorder never reads it again
    clock.tick(250);
    recorder.token();
    recorder.end();
    assert.deepEqual(kept, { sentAt: SENT, firstTokenAt: SENT + 250, endedAt: SENT + 250 });
    assert.ok(wall < SENT);
  });

  it('a streamed reply: first token 0.8 s, 42 tokens/s over the span from the first token to the end', async () => {
    const clock = manualClock();
    // 800 ms to the first piece, then 42 tokens over the next second (reported by the service).
    const r = await run(
      timedSource(['Hello', ' world', '.'], [800, 500, 500, 0], clock, { report: { input: 10, output: 42 } }),
      clock,
    );
    assert.deepEqual(r.timing, { sentAt: SENT, firstTokenAt: SENT + 800, endedAt: SENT + 1800 });
    assert.deepEqual(replySpeed(r.timing, r.usage), { firstTokenMs: 800, tokensPerSecond: 42, estimated: false });
  });

  it('a reply from one response (not streamed): the first token is the whole, the rate counts from the request', async () => {
    const clock = manualClock();
    const r = await run(
      timedSource(['All at once.'], [2000], clock, { report: { input: 5, output: 40 } }),
      clock,
      false,
    );
    assert.deepEqual(r.timing, { sentAt: SENT, firstTokenAt: SENT + 2000, endedAt: SENT + 2000 });
    assert.deepEqual(replySpeed(r.timing, r.usage), { firstTokenMs: 2000, tokensPerSecond: 20, estimated: false });
  });

  it('a streamed reply whose pieces came within MIN_RATE_SPAN_MS of the first counts its rate over the whole', () => {
    const timing = { sentAt: SENT, firstTokenAt: SENT + 900, endedAt: SENT + 900 + MIN_RATE_SPAN_MS - 1 };
    const speed = replySpeed(timing, { input: 1, output: 30 });
    assert.equal(speed?.tokensPerSecond, (30 * 1000) / (900 + MIN_RATE_SPAN_MS - 1));
    const longer = { ...timing, endedAt: SENT + 900 + MIN_RATE_SPAN_MS };
    assert.equal(replySpeed(longer, { input: 1, output: 30 })?.tokensPerSecond, (30 * 1000) / MIN_RATE_SPAN_MS);
  });

  it('the estimate is said as such: a reply without reported usage has an estimated rate', async () => {
    const clock = manualClock();
    const r = await run(timedSource(['Some words here', ' and more words'], [300, 1000, 0], clock), clock);
    assert.equal(r.usage?.reported, undefined);
    const speed = replySpeed(r.timing, r.usage);
    assert.equal(speed?.estimated, true);
    assert.equal(speed?.firstTokenMs, 300);
    assert.equal(speed?.tokensPerSecond, r.usage?.output);
  });

  it('a reply stopped before its first token keeps when it was sent and ended, and shows no speed', async () => {
    const clock = manualClock();
    const controller = new AbortController();
    const r = await run(timedSource([], [1200], clock, { abort: controller }), clock, true, controller.signal);
    assert.equal(r.status, 'stopped');
    assert.deepEqual(r.timing, { sentAt: SENT, endedAt: SENT + 1200 });
    assert.equal(replySpeed(r.timing, r.usage), undefined);
  });

  it('a reply cut off after some text keeps its timing to the failure', async () => {
    const clock = manualClock();
    const r = await run(timedSource(['Part'], [400, 600], clock, { failAfter: true }), clock);
    assert.equal(r.status, 'error');
    assert.deepEqual(r.timing, { sentAt: SENT, firstTokenAt: SENT + 400, endedAt: SENT + 1000 });
    assert.equal(replySpeed(r.timing, r.usage)?.firstTokenMs, 400);
  });

  it('a reply with no end (a window closed mid-stream) shows its first token and no rate', () => {
    assert.deepEqual(replySpeed({ sentAt: SENT, firstTokenAt: SENT + 500 }, { input: 1, output: 9 }), {
      firstTokenMs: 500,
      estimated: true,
    });
    assert.deepEqual(replySpeed({ sentAt: SENT, firstTokenAt: SENT + 500, endedAt: SENT + 900 }, undefined), {
      firstTokenMs: 500,
      estimated: true,
    });
  });

  it('an old reply with no timing shows no speed', () => {
    assert.equal(replySpeed(undefined, { input: 1, output: 2, reported: true }), undefined);
  });

  it('parseTiming keeps sound timing and drops absurd timing whole', () => {
    const good = { sentAt: SENT, firstTokenAt: SENT + 10, endedAt: SENT + 20 };
    assert.deepEqual(parseTiming(good), good);
    assert.deepEqual(parseTiming({ sentAt: SENT }), { sentAt: SENT });
    assert.deepEqual(parseTiming({ sentAt: SENT, endedAt: SENT + 5 }), { sentAt: SENT, endedAt: SENT + 5 });
    assert.deepEqual(parseTiming({ ...good, extra: 'x' }), good);
    const absurd: unknown[] = [
      undefined,
      null,
      7,
      'soon',
      [SENT],
      {},
      { sentAt: '1700000000000' },
      { sentAt: Number.NaN },
      { sentAt: Infinity },
      { sentAt: -1 },
      { sentAt: 1e300 },
      { ...good, firstTokenAt: SENT - 1 }, // the first token before the request
      { ...good, endedAt: SENT + 5 }, // the end before the first token
      { sentAt: SENT, endedAt: SENT - 5 },
      { ...good, endedAt: SENT + MAX_REPLY_SPAN_MS + 1 }, // a reply of more than a day
      { sentAt: SENT, firstTokenAt: SENT + MAX_REPLY_SPAN_MS + 1 },
      { ...good, firstTokenAt: null },
      { ...good, endedAt: 'later' },
    ];
    for (const value of absurd) {
      assert.equal(parseTiming(value), undefined, JSON.stringify(value));
    }
    assert.equal(
      replySpeed({ sentAt: SENT, firstTokenAt: SENT - 5 }, undefined),
      undefined,
      'live timing is checked too',
    );
  });

  it('is stored with the reply: the store writes it and reads it back; old and broken ones read as none', () => {
    const conversation = newConversation(SENT);
    const timing = { sentAt: SENT, firstTokenAt: SENT + 800, endedAt: SENT + 1800 };
    conversation.messages.push(
      { id: 'u', role: 'user', content: 'hi', createdAt: SENT },
      { id: 'a', role: 'assistant', content: 'Hello.', createdAt: SENT, status: 'done', timing },
    );
    const encoder = new ConversationEncoder();
    const read = () =>
      parseConversation(JSON.parse(Buffer.concat(encoder.encode(conversation, 'rev')).toString('utf8')));
    assert.deepEqual(read()?.messages[1].timing, timing);
    // A new timing object (as the recorder writes) is written again, not served from the encoder's cache.
    conversation.messages[1].timing = { ...timing, endedAt: SENT + 2800 };
    assert.equal(read()?.messages[1].timing?.endedAt, SENT + 2800);

    const file = (message: Record<string, unknown>) => ({
      version: CONVERSATION_VERSION,
      id: 'c',
      messages: [{ id: 'u', role: 'user', content: 'hi', createdAt: 1, timing }, message],
    });
    const old = parseConversation(file({ id: 'a', role: 'assistant', content: 'Old.', createdAt: 1, status: 'done' }));
    assert.equal(old?.messages[1].timing, undefined);
    assert.equal('timing' in (old?.messages[1] ?? {}), false);
    assert.equal(old?.messages[0].timing, undefined, 'a prompt has no timing');
    const broken = parseConversation(
      file({
        id: 'a',
        role: 'assistant',
        content: 'Odd.',
        createdAt: 1,
        status: 'done',
        timing: { sentAt: 5, endedAt: 1 },
      }),
    );
    assert.equal(broken?.messages[1].content, 'Odd.', 'the reply itself stays');
    assert.equal(broken?.messages[1].timing, undefined);
  });

  it('a regenerated reply: every version keeps its own timing, the one moved to the branches too', async () => {
    const { state, holder, source } = setup();
    await state.send('Name a colour');
    const first = holder.conversation.messages[1];
    source.pieces = ['Blue', '.'];
    await state.regenerate();
    const second = holder.conversation.messages[1];
    assert.notEqual(first, second);
    for (const version of [first, second]) {
      const t = version.timing;
      assert.ok(t && t.firstTokenAt !== undefined && t.endedAt !== undefined, JSON.stringify(t));
      assert.ok(t.sentAt <= t.firstTokenAt && t.firstTokenAt <= t.endedAt);
    }
    assert.equal(holder.conversation.branches?.find((m) => m.id === first.id)?.timing, first.timing);
    const saved = holder.files.get(holder.conversation.id);
    assert.deepEqual(saved?.messages[1].timing, second.timing);
  });
});
