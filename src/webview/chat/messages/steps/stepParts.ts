/**
 * The pure side of a reply's steps (its tool calls, drawn inside it): where they sit in the text, how a title's code
 * is marked, and what a screen reader is told when one starts. Free of the DOM, so the unit tests run it in Node.
 */
import * as l10n from '@vscode/l10n';
import type { StepView } from '../../../../protocol/chatProtocol';
import type { AnnounceMode } from '../../spokenReply';

/** A run of a step's title: plain text, or code (written between backticks in the title). */
export interface TitlePart {
  text: string;
  code: boolean;
}

/**
 * A title split into text and code: "Read `src/app.ts`, lines 1–120" is text, code, text. A backtick without a partner
 * stays text; an empty pair (``) is dropped. Each backtick is looked at once.
 */
export function titleParts(title: string): TitlePart[] {
  const parts: TitlePart[] = [];
  let at = 0;
  for (;;) {
    const open = title.indexOf('`', at);
    const close = open < 0 ? -1 : title.indexOf('`', open + 1);
    if (close < 0) {
      break;
    }
    if (open > at) {
      parts.push({ text: title.slice(at, open), code: false });
    }
    if (close > open + 1) {
      parts.push({ text: title.slice(open + 1, close), code: true });
    }
    at = close + 1;
  }
  if (at < title.length) {
    parts.push({ text: title.slice(at), code: false });
  }
  return parts;
}

/** A title as read aloud: its code marks gone. */
export function spokenTitle(title: string): string {
  return titleParts(title)
    .map((part) => part.text)
    .join('');
}

/** A step's place in a reply's text of `length` characters: its offset, within the text and a whole number. */
export function clampOffset(offset: number, length: number): number {
  const whole = Number.isFinite(offset) ? Math.trunc(offset) : 0;
  return Math.min(Math.max(whole, 0), length);
}

/** A piece of a reply in reading order: its text from `start` to `end`, or a step. */
export type ReplyPart = { kind: 'text'; start: number; end: number } | { kind: 'step'; step: StepView };

/**
 * A reply of `length` characters with its steps, in reading order: the text cut at each step's offset, the step
 * between. Steps at one offset keep their order; text between them is left out when empty, but the last text part is
 * always there (a streaming reply's next text goes into it). Already ordered steps (the usual case) are not sorted.
 */
export function replyParts(length: number, steps: readonly StepView[]): ReplyPart[] {
  let ordered = steps;
  for (let i = 1; i < steps.length; i++) {
    if (clampOffset(steps[i].offset, length) < clampOffset(steps[i - 1].offset, length)) {
      // Array.prototype.sort is stable: steps at one offset stay in the order given.
      ordered = [...steps].sort((a, b) => clampOffset(a.offset, length) - clampOffset(b.offset, length));
      break;
    }
  }
  const parts: ReplyPart[] = [];
  let start = 0;
  for (const step of ordered) {
    const at = clampOffset(step.offset, length);
    if (at > start) {
      parts.push({ kind: 'text', start, end: at });
    }
    parts.push({ kind: 'step', step });
    start = at;
  }
  parts.push({ kind: 'text', start, end: length });
  return parts;
}

/** What a streaming reply does with a step that arrives: redraw it, cut the live text at `at`, or lay out again. */
export type StepPlacement = { kind: 'update' } | { kind: 'cut'; at: number } | { kind: 'layout' };

/**
 * The steps of a streaming reply as they arrive: a known id is an update of its step (drawn in place); a new step is
 * cut into the live text, the part after the last step, at its offset; only a step before the last one's offset (out
 * of order) needs the reply laid out again. The live text is never drawn again but when a step cuts into it.
 */
export class StepTrack {
  private readonly known = new Set<string>();
  /** Where the live text starts: the offset of the last step placed. */
  private liveStart = 0;

  /** Steps drawn by a whole layout of a text of `length` characters (a reply drawn from a state). */
  laidOut(steps: readonly StepView[], length: number): void {
    for (const step of steps) {
      this.known.add(step.id);
      this.liveStart = Math.max(this.liveStart, clampOffset(step.offset, length));
    }
  }

  /** Where `step` goes when `received` characters of the reply are in. */
  place(step: StepView, received: number): StepPlacement {
    if (this.known.has(step.id)) {
      return { kind: 'update' };
    }
    this.known.add(step.id);
    const at = clampOffset(step.offset, received);
    if (at < this.liveStart) {
      return { kind: 'layout' };
    }
    this.liveStart = at;
    return { kind: 'cut', at };
  }
}

/** The codicon of a step's status (spinning while it runs) and the word a screen reader hears for it. */
export function stepStatus(status: StepView['status']): { icon: string; spin: boolean; label: string } {
  switch (status) {
    case 'running':
      return { icon: 'loading', spin: true, label: l10n.t('running') };
    case 'done':
      return { icon: 'check', spin: false, label: l10n.t('done') };
    case 'refused':
      return { icon: 'warning', spin: false, label: l10n.t('refused') };
    case 'failed':
      return { icon: 'error', spin: false, label: l10n.t('failed') };
    case 'stopped':
      return { icon: 'debug-stop', spin: false, label: l10n.t('stopped') };
    default:
      // A status this page does not know (a newer host): shown without an icon of its own, named as sent.
      return { icon: 'circle-outline', spin: false, label: String(status) };
  }
}

/**
 * What a screen reader is told of a reply's steps: each one once, when it is first seen ("Reading `src/app.ts`" as
 * "Reading src/app.ts"), never on its updates. With `alphaAxo.chat.announceReplies` at `startAndEnd` only a reply's
 * start and end are said, so steps are not.
 */
export class StepAnnouncements {
  private readonly said = new Set<string>();

  /** A new reply started: its steps are new. */
  reset(): void {
    this.said.clear();
  }

  /** What to say for `step` now: its title the first time its id is seen, else nothing. */
  next(step: StepView, mode: AnnounceMode): string | undefined {
    if (this.said.has(step.id)) {
      return undefined;
    }
    this.said.add(step.id);
    return mode === 'startAndEnd' ? undefined : spokenTitle(step.title);
  }
}
