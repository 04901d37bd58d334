import { longReply } from './chatContent';
import { PIECE_BREAK } from './agentScript';
import { chunkBytes, hashString, splitPieces } from './chunking';
import type { RequestContext } from './context';
import { echoKeyMessage, presentedKey } from './faults';

/** Length of the single event's content under the `big-event` fault. */
export const BIG_EVENT_LENGTH = 1_000_000;

/** Milliseconds between events under the `slow` fault. */
export const SLOW_EVENT_MS = 100;

/** The text appended after `[DONE]` under the `done-then-more` fault (a client must not show it). */
export const AFTER_DONE_TEXT = ' THIS CAME AFTER [DONE]';

/** The error event's message under the `error-event` fault. */
export const ERROR_EVENT_MESSAGE = 'The model is overloaded';

/** How many content events are sent before the `error-event` fault's error. */
export const EVENTS_BEFORE_ERROR = 5;

/**
 * How events are framed, chosen apart from the fault (so it combines with crlf, cr, cut, stall, slow…):
 * - `standard`: each `data:` line followed by a blank line, as the browser SSE standard writes events;
 * - `lines`: exactly as the spec's section 6 reads: one `data:` line per event, no blank line anywhere, and the
 *   connection held open `LINES_HOLD_MS` after `data: [DONE]` (a client must end the reply at `[DONE]`);
 * - `ndjson`: not server-sent events but JSON lines, as Ollama streams: each payload on a line of its own, no
 *   `data:`, no `[DONE]` (the end of the body ends the reply), `Content-Type: application/x-ndjson`; the
 *   `comments` fault sends blank lines as keep-alives. With `chunks:ollama` it is Ollama's own stream.
 */
export type Framing = 'standard' | 'lines' | 'ndjson';

/** Every framing the fake knows. */
export const FRAMINGS: readonly Framing[] = ['standard', 'lines', 'ndjson'];

/** The payload of one event carrying `text` in a chunk form (undefined: the spec's own). */
function chunkPayload(form: string | undefined, text: string): unknown {
  switch (form) {
    case 'openai':
      return {
        id: 'chatcmpl-fake',
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { content: text } }],
      };
    case 'anthropic':
      return { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } };
    case 'ollama':
      return { model: 'alpha', message: { role: 'assistant', content: text }, done: false };
    case 'gemini':
      return { candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }] };
    default:
      return { content: text };
  }
}

/**
 * The events a chunk form's server sends before and after the text (none of them carries any); the last one after
 * is that server's own end of the reply, in place of `[DONE]`.
 */
function chunkFrame(form: string | undefined): { before: unknown[]; after: unknown[] } {
  switch (form) {
    case 'openai':
      return {
        before: [{ id: 'chatcmpl-fake', choices: [{ index: 0, delta: { role: 'assistant' } }] }],
        after: [{ id: 'chatcmpl-fake', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }],
      };
    case 'anthropic':
      return {
        before: [
          { type: 'message_start', message: { id: 'msg_fake', role: 'assistant', content: [] } },
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        ],
        after: [
          { type: 'content_block_stop', index: 0 },
          { type: 'message_delta', delta: { stop_reason: 'end_turn' } },
          { type: 'message_stop' },
        ],
      };
    case 'ollama':
      return { before: [], after: [{ model: 'alpha', message: { role: 'assistant', content: '' }, done: true }] };
    case 'gemini':
      return { before: [], after: [{ candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP' }] }] };
    default:
      return { before: [], after: [] };
  }
}

/** How long the `lines` framing keeps the connection open after `data: [DONE]` before ending the response. */
export const LINES_HOLD_MS = 3000;

/** Whether a text names a framing the fake knows. */
export function isFraming(text: string | undefined): text is Framing {
  return FRAMINGS.includes(text as Framing);
}

/** The stream as framed text plus what happens after it is written. */
interface StreamPlan {
  events: string[];
  after: 'end' | 'cut' | 'stall';
}

function lineEnds(fault: string | undefined, framing: Framing): { eol: string; end: string; data: string } {
  const eol = fault === 'crlf' ? '\r\n' : fault === 'cr' ? '\r' : '\n';
  if (framing === 'ndjson') {
    return { eol, end: eol, data: '' };
  }
  return { eol, end: framing === 'lines' ? eol : eol + eol, data: fault === 'no-space' ? 'data:' : 'data: ' };
}

/** Builds the framed events of a stream for a reply under a fault (or none); `key` is the one presented. */
function planStream(
  reply: string,
  fault: string | undefined,
  framing: Framing,
  seed: number,
  key: string,
  usage?: Record<string, unknown>,
): StreamPlan {
  const { eol, end, data } = lineEnds(fault, framing);
  const sse = framing !== 'ndjson';
  const frame = (payload: string, id?: number) =>
    (sse && fault === 'comments' && id !== undefined ? `event: message${eol}id: ${id}${eol}` : '') +
    `${data}${payload}${end}`;
  const form = fault?.startsWith('chunks:') ? fault.slice('chunks:'.length) : undefined;
  const content = (text: string) => JSON.stringify(chunkPayload(form, text));
  // A reply the scripted agent cut on purpose streams one event per piece.
  const pieces =
    fault === 'big-event'
      ? [longReply(BIG_EVENT_LENGTH)]
      : reply.includes(PIECE_BREAK)
        ? reply.split(PIECE_BREAK)
        : splitPieces(reply, seed);
  const around = chunkFrame(form);
  let payloads = [
    ...around.before.map((p) => JSON.stringify(p)),
    ...pieces.map(content),
    ...around.after.map((p) => JSON.stringify(p)),
  ];
  if (fault === 'bad-json') {
    payloads.splice(Math.floor(payloads.length / 3), 0, '{"content": "oops');
  } else if (fault === 'no-content') {
    payloads.splice(Math.floor(payloads.length / 2), 0, '{"role":"assistant"}');
    payloads.unshift('{"role":"assistant"}');
  } else if (fault === 'error-event' || fault === 'error-event:named') {
    payloads = payloads.slice(0, EVENTS_BEFORE_ERROR);
  } else if (fault === 'echo-key:stream') {
    payloads = payloads.slice(0, EVENTS_BEFORE_ERROR);
    payloads.push(JSON.stringify({ error: { message: echoKeyMessage(key), code: 'invalid_api_key' } }));
  } else if (fault === 'cut' || fault === 'stall') {
    payloads = payloads.slice(0, Math.max(1, Math.floor(payloads.length / (fault === 'cut' ? 2 : 3))));
  }
  if (usage) {
    // As services that report usage send it: one last event with no content.
    payloads.push(JSON.stringify({ usage }));
  }
  const events: string[] = [];
  payloads.forEach((payload, i) => {
    if (fault === 'comments' && i % 5 === 0) {
      events.push(sse ? `: keep-alive${end}` : eol);
    }
    events.push(frame(payload, i + 1));
  });
  if (fault === 'error-event') {
    events.push(frame(JSON.stringify({ error: { message: ERROR_EVENT_MESSAGE } })));
  } else if (fault === 'error-event:named' && sse) {
    // As servers that name their events write an error: the event's name says it, the payload has only a message.
    events.push(`event: error${eol}${frame(JSON.stringify({ message: ERROR_EVENT_MESSAGE }))}`);
  } else if (fault === 'error-event:named') {
    // JSON lines name no events: the payload says its type.
    events.push(frame(JSON.stringify({ type: 'error', message: ERROR_EVENT_MESSAGE })));
  }
  // Of the other servers' forms, only OpenAI's ends with [DONE]; the others end with their own last event, and
  // JSON lines with the end of the body.
  const sendsDone = sse && (form === undefined || form === 'openai');
  const endsEarly = ['error-event', 'error-event:named', 'echo-key:stream', 'cut', 'stall'].includes(fault ?? '');
  if (sendsDone && !endsEarly) {
    events.push(frame('[DONE]'));
  }
  if (fault === 'done-then-more' && sse) {
    splitPieces(AFTER_DONE_TEXT, seed).forEach((p) => events.push(frame(content(p))));
  }
  if (fault === 'bom') {
    events[0] = `\uFEFF${events[0]}`;
  }
  return { events, after: fault === 'cut' ? 'cut' : fault === 'stall' ? 'stall' : 'end' };
}

/**
 * Streams a reply as server-sent events: `data: {"content":"<1–6 code points>"}` events, then `data: [DONE]`
 * (or as JSON lines, see `Framing`),
 * framed as `framing` says. Bytes go out in seeded pseudo-random chunks that cut inside UTF-8 sequences and
 * `data:` lines, with `tokenDelayMs` between writes (`slow`: one event per write, 100 ms apart). Stops when the
 * client goes away.
 */
export async function streamReply(
  ctx: RequestContext,
  reply: string,
  framing: Framing = 'standard',
  usage?: Record<string, unknown>,
): Promise<void> {
  const seed = hashString(reply) ^ ctx.record.id;
  const plan = planStream(reply, ctx.fault, framing, seed, presentedKey(ctx.req.headers.authorization), usage);
  ctx.record.framing = framing;
  const type = framing === 'ndjson' ? 'application/x-ndjson' : 'text/event-stream';
  ctx.head(200, { 'content-type': type, 'cache-control': 'no-cache' });
  const written =
    ctx.fault === 'slow' ? await writeSlowly(ctx, plan.events) : await writeChunked(ctx, plan.events, seed);
  if (!written) {
    return;
  }
  if (plan.events.some((event) => event.includes('data: [DONE]') || event.includes('data:[DONE]'))) {
    ctx.record.doneAt = Date.now();
  }
  if (plan.after === 'cut') {
    await ctx.cut();
  } else if (plan.after === 'stall') {
    await ctx.untilClosed();
  } else if (framing === 'lines') {
    // Held open after [DONE], as a server may: the client must not wait for the end of the body.
    if (await ctx.delay(LINES_HOLD_MS)) {
      ctx.res.end();
    }
  } else {
    ctx.res.end();
  }
}

async function writeSlowly(ctx: RequestContext, events: string[]): Promise<boolean> {
  for (let i = 0; i < events.length; i++) {
    if (i > 0 && !(await ctx.delay(SLOW_EVENT_MS))) {
      return false;
    }
    if (!(await ctx.write(events[i]))) {
      return false;
    }
  }
  return true;
}

async function writeChunked(ctx: RequestContext, events: string[], seed: number): Promise<boolean> {
  const bytes = Buffer.from(events.join(''));
  const chunks = chunkBytes(bytes, seed, Math.max(64, Math.ceil(bytes.length / 200)));
  for (let i = 0; i < chunks.length; i++) {
    if (i > 0 && ctx.tokenDelayMs > 0 && !(await ctx.delay(ctx.tokenDelayMs))) {
      return false;
    }
    if (!(await ctx.write(chunks[i]))) {
      return false;
    }
  }
  return true;
}
