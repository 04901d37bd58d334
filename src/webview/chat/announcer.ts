import type { ChatErrorView, StepView } from '../../protocol/chatProtocol';
import * as l10n from '@vscode/l10n';
import { h } from '../shared/dom';
import { replyAnnouncement, type AnnounceMode } from './spokenReply';
import { StepAnnouncements } from './messages/steps/stepParts';

/**
 * The page's two live regions: a polite one for a reply's start and end and short confirmations ("Copied"), and
 * an assertive one for errors. The conversation log itself is not live (`aria-live="off"`), so nothing is said per
 * delta: a reply is announced when it starts and when it ends, never while it grows, and each of its steps once, when
 * it starts ("Reading src/app.ts").
 */
export class Announcer {
  readonly polite = h('div', { class: 'sr-only announcer', role: 'status', 'aria-live': 'polite' });
  readonly assertive = h('div', { class: 'sr-only announcer-alert', 'aria-live': 'assertive', 'aria-atomic': 'true' });
  private mode: AnnounceMode = 'firstSentence';
  private readonly steps = new StepAnnouncements();
  /** The steps said in this frame: two that start together are said together rather than the first cut off. */
  private stepTexts: string[] = [];
  /** What a region says in the next frame (see say). */
  private readonly waiting = new Map<HTMLElement, string>();

  /** `alphaAxo.chat.announceReplies`. */
  setMode(mode: AnnounceMode): void {
    this.mode = mode;
    this.polite.dataset.mode = mode; // What the page follows, visible to a test without being spoken.
  }

  /** A reply started streaming. */
  replyStarted(): void {
    this.steps.reset();
    this.say(this.polite, l10n.t('ALPHA is replying.'));
  }

  /** A step of the streaming reply was drawn: its title, the first time it is seen (none at `startAndEnd`). */
  stepStarted(step: StepView): void {
    const text = this.steps.next(step, this.mode);
    if (text === undefined) {
      return;
    }
    this.stepTexts.push(text);
    if (this.stepTexts.length === 1) {
      requestAnimationFrame(() => (this.stepTexts = []));
    }
    this.say(this.polite, this.stepTexts.join(' '));
  }

  /** A reply ended normally: the first sentence, the whole reply or no text, as the setting says. */
  replyDone(markdown: string): void {
    this.say(this.polite, replyAnnouncement(markdown, this.mode));
  }

  /** A reply was stopped; its partial text stays. */
  replyStopped(): void {
    this.say(this.polite, l10n.t('ALPHA stopped. The partial reply is kept.'));
  }

  /** A reply failed: the sentence and the button that fixes it, assertively. */
  replyFailed(error: ChatErrorView): void {
    const said = l10n.t('ALPHA could not finish: {0}', error.message);
    const hasAction = error.action !== 'none' && !!error.actionLabel;
    this.say(
      this.assertive,
      hasAction ? `${said} ${l10n.t('Use the “{0}” button below the reply.', error.actionLabel ?? '')}` : said,
    );
  }

  /** A short confirmation from the host ("Copied"). */
  status(text: string): void {
    this.say(this.polite, text);
  }

  /**
   * A changed text is what makes screen readers speak: a new text is set at once; the same text again is cleared
   * and set in the next frame, so that it is said again (and a text said while one waits for that frame waits too,
   * so the frame does not put the older one back).
   */
  private say(region: HTMLElement, text: string): void {
    const waiting = this.waiting.has(region);
    if (!waiting && region.textContent !== text) {
      region.textContent = text;
      return;
    }
    region.textContent = '';
    this.waiting.set(region, text);
    if (!waiting) {
      requestAnimationFrame(() => {
        region.textContent = this.waiting.get(region) ?? '';
        this.waiting.delete(region);
      });
    }
  }
}
