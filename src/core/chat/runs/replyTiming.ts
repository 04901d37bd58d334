import type { ReplyUsage } from '../../service/usage';

/**
 * When a reply's request was sent, its first piece of text arrived and it ended, in milliseconds since the epoch.
 * `firstTokenAt` is absent for a reply that got no text (stopped or failed before the first token); `endedAt` for one
 * still streaming, or cut short by a closing window before its end was written down. A reply that came in one
 * response (not streamed) has its first token when the whole arrived.
 */
export interface ReplyTiming {
  sentAt: number;
  firstTokenAt?: number;
  endedAt?: number;
}

/** How fast a reply came, as its footer shows it. */
export interface ReplySpeed {
  /** From the request sent to the first token, in milliseconds. */
  firstTokenMs: number;
  /** Output tokens per second; absent when the reply has no end or no usable time span. */
  tokensPerSecond?: number;
  /** The token count is this extension's estimate, not the service's report. */
  estimated: boolean;
}

/**
 * The longest a reply's timing may span: a day. A longer span (or one running backwards) is not a reply's timing
 * but a broken or doctored file, and is dropped whole.
 */
export const MAX_REPLY_SPAN_MS = 24 * 60 * 60 * 1000;

/**
 * Tokens per second are counted from the first token to the end. A reply that arrived in one piece (not streamed, or
 * one event) has next to no such span, and its rate would be a division by almost nothing: under this span the rate
 * is counted from the request sent instead, over the whole reply.
 */
export const MIN_RATE_SPAN_MS = 250;

/** The latest time a `Date` can hold; a time past it is not a time. */
const MAX_TIME_MS = 8.64e15;

/**
 * Writes down a reply's timing as it runs. Spans are measured on a monotonic clock (`clock`, performance.now by
 * default), so a wall clock set back mid-reply cannot make a reply end before it began; the times kept are the
 * wall time the request was sent plus those spans. Each step replaces `timing` with a new object: the store's
 * encoder knows a changed message by its fields' identity (conversationEncoder.ts).
 */
export class TimingRecorder {
  private readonly start: number;
  private readonly sentAt: number;
  private firstTokenAt: number | undefined;
  private endedAt: number | undefined;

  constructor(
    private readonly keep: (timing: ReplyTiming) => void,
    private readonly clock: () => number = () => performance.now(),
    wallNow: number = Date.now(),
  ) {
    this.start = clock();
    this.sentAt = wallNow;
    this.write();
  }

  /** A piece of text arrived: the first one is the first token; later ones change nothing. */
  token(): void {
    if (this.firstTokenAt === undefined && this.endedAt === undefined) {
      this.firstTokenAt = this.at();
      this.write();
    }
  }

  /** The reply ended (done, stopped or failed): told once. */
  end(): void {
    if (this.endedAt === undefined) {
      this.endedAt = this.at();
      this.write();
    }
  }

  private at(): number {
    return this.sentAt + Math.max(0, Math.round(this.clock() - this.start));
  }

  private write(): void {
    this.keep({
      sentAt: this.sentAt,
      ...(this.firstTokenAt === undefined ? {} : { firstTokenAt: this.firstTokenAt }),
      ...(this.endedAt === undefined ? {} : { endedAt: this.endedAt }),
    });
  }
}

/**
 * A reply's timing read back from a file (the store's or an import's): undefined unless every time is a finite
 * number, in order (sent ≤ first token ≤ end) and within MAX_REPLY_SPAN_MS of the request. Timing that fails any of
 * these is dropped whole rather than mended: a reply then shows no speed, which is true, instead of a made-up one.
 */
export function parseTiming(value: unknown): ReplyTiming | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return undefined;
  }
  const record = value as Record<string, unknown>;
  const sentAt = time(record.sentAt);
  if (sentAt === undefined) {
    return undefined;
  }
  const first = record.firstTokenAt === undefined ? null : time(record.firstTokenAt);
  const end = record.endedAt === undefined ? null : time(record.endedAt);
  if (first === undefined || end === undefined) {
    return undefined;
  }
  const timing: ReplyTiming = { sentAt };
  if (first !== null) {
    timing.firstTokenAt = first;
  }
  if (end !== null) {
    timing.endedAt = end;
  }
  return plausible(timing) ? timing : undefined;
}

/** Whether `timing` runs forwards and spans at most MAX_REPLY_SPAN_MS. */
export function plausible(timing: ReplyTiming): boolean {
  const { sentAt, firstTokenAt, endedAt } = timing;
  const last = endedAt ?? firstTokenAt ?? sentAt;
  return (
    (firstTokenAt === undefined || firstTokenAt >= sentAt) &&
    (endedAt === undefined || endedAt >= (firstTokenAt ?? sentAt)) &&
    last - sentAt <= MAX_REPLY_SPAN_MS
  );
}

/**
 * How fast a reply came: the time to its first token and, once it has ended, its output tokens per second (the
 * service's count when it reported one, else the estimate, marked `estimated`). Undefined for a reply with no timing
 * (stored before replies were timed), none that makes sense, or no first token (nothing arrived to time).
 */
export function replySpeed(timing: ReplyTiming | undefined, usage: ReplyUsage | undefined): ReplySpeed | undefined {
  if (!timing || timing.firstTokenAt === undefined || !plausible(timing)) {
    return undefined;
  }
  const speed: ReplySpeed = { firstTokenMs: timing.firstTokenAt - timing.sentAt, estimated: usage?.reported !== true };
  const rate =
    usage && timing.endedAt !== undefined ? tokensPerSecond(timing, timing.endedAt, usage.output) : undefined;
  if (rate !== undefined) {
    speed.tokensPerSecond = rate;
  }
  return speed;
}

/** `output` tokens over the streamed span (first token to end), or over the whole reply when that span is too short. */
function tokensPerSecond(timing: ReplyTiming, endedAt: number, output: number): number | undefined {
  const streamed = endedAt - (timing.firstTokenAt ?? timing.sentAt);
  const span = streamed >= MIN_RATE_SPAN_MS ? streamed : endedAt - timing.sentAt;
  return span > 0 && output > 0 ? (output * 1000) / span : undefined;
}

function time(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_TIME_MS ? value : undefined;
}
