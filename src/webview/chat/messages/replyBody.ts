import type { MessageView, StepView } from '../../../protocol/chatProtocol';
import { h } from '../../shared/dom';
import { renderMarkdownInto, StreamRenderer, type Decorate } from '../render';
import { StepElement, type StepContext } from './steps/stepElement';
import { replyParts, StepTrack } from './steps/stepParts';

/** Replies longer than this are drawn over several frames rather than in one go. */
const LONG_REPLY_CHARS = 65_536;
/**
 * Replies with more formula delimiters than this (`$`, `\(`, `\[`: about half as many formulas) are drawn over
 * several frames too: a formula costs about a millisecond and a half to render and lay out, so 200 of them drawn at
 * once were a task of 264 ms (mathRender.bench).
 */
const MANY_FORMULA_DELIMITERS = 80;

/** Whether `text` holds more than MANY_FORMULA_DELIMITERS formula delimiters (counted up to there). */
function manyFormulas(text: string): boolean {
  let count = 0;
  for (let i = text.indexOf('$'), j = text.indexOf('\\'); i >= 0 || j >= 0;) {
    if (j < 0 || (i >= 0 && i < j)) {
      count++;
      i = text.indexOf('$', i + 1);
    } else {
      const next = text[j + 1];
      if (next === '(' || next === '[') {
        count++;
      }
      j = text.indexOf('\\', j + 2);
    }
    if (count > MANY_FORMULA_DELIMITERS) {
      return true;
    }
  }
  return false;
}

/** What a reply's body needs from its message. */
export interface ReplyBodyContext extends StepContext {
  decorate: Decorate;
  onRendered(): void;
  /** Links the `[n]` markers of a drawn piece of a finished reply to its sources (absent: it has none). */
  linkMarkers?: (piece: DocumentFragment | HTMLElement) => void;
}

/** A stretch of the reply's text between steps, from `start`, and the renderer that drew it (if it needed one). */
interface Segment {
  container: HTMLElement;
  start: number;
  renderer?: StreamRenderer;
}

/**
 * A reply's text and its steps, in order: the text is cut at each step's offset and drawn as Markdown piece by piece,
 * each step between (a step sits where the reply's text stood when the call was written). A reply without steps draws
 * straight into its body as it always did. While the reply streams, deltas go to the live piece after the last step;
 * a new step finishes that piece (it stays as drawn) and starts the next, and an update of a step redraws that step
 * only: the work per delta or step does not grow with the reply.
 */
export class ReplyBody {
  /** The reply's text as it arrived. */
  private raw: string;
  private segments: Segment[] = [];
  /** The steps in the order they came, each once (a newer view replaces its older one). */
  readonly steps: StepView[] = [];
  private readonly stepIndex = new Map<string, number>();
  private readonly stepElements = new Map<string, StepElement>();
  private readonly track = new StepTrack();

  constructor(
    private readonly body: HTMLElement,
    message: MessageView,
    private readonly ctx: ReplyBodyContext,
    streaming: boolean,
  ) {
    this.raw = message.content;
    for (const step of message.steps ?? []) {
      this.record(step);
    }
    this.track.laidOut(this.steps, this.raw.length);
    this.layout(streaming);
  }

  /** The text so far. */
  get source(): string {
    return this.raw;
  }

  /** Adds a delta of the streaming reply to its live piece. */
  append(delta: string): void {
    this.raw += delta;
    this.segments.at(-1)?.renderer?.append(delta);
  }

  /** Draws a step of the streaming reply, or replaces the one with its id; true when the step is new. */
  step(view: StepView): boolean {
    const placement = this.track.place(view, this.raw.length);
    this.record(view);
    if (placement.kind === 'update') {
      this.stepElements.get(view.id)?.update(view);
      return false;
    }
    if (placement.kind === 'layout') {
      this.layout(true);
    } else {
      this.cut(view, placement.at);
    }
    return true;
  }

  /** The reply ended: its live piece is finished. */
  finish(): void {
    this.segments.at(-1)?.renderer?.finish();
  }

  /** Stops drawing (the message left the page). */
  dispose(): void {
    this.segments.forEach((segment) => segment.renderer?.dispose());
  }

  /** Wakes the sleeping sections of its pieces whose Markdown `holds` accepts (see FinishedBlocks.wakeWhere). */
  wakeWhere(holds: (markdown: string) => boolean): number {
    return this.segments.reduce((woke, segment) => woke + (segment.renderer?.wakeWhere(holds) ?? 0), 0);
  }

  private record(view: StepView): void {
    const at = this.stepIndex.get(view.id);
    if (at === undefined) {
      this.stepIndex.set(view.id, this.steps.length);
      this.steps.push(view);
    } else {
      this.steps[at] = view;
    }
  }

  /** Draws the whole body from the text and the steps; `live`: the last piece keeps streaming. */
  private layout(live: boolean): void {
    this.dispose();
    if (this.steps.length === 0) {
      this.segments = [this.draw(this.body, 0, this.raw.length, live)];
      return;
    }
    const parts = replyParts(this.raw.length, this.steps);
    const children: HTMLElement[] = [];
    const pieces: { container: HTMLElement; start: number; end: number; live: boolean }[] = [];
    parts.forEach((part, i) => {
      if (part.kind === 'step') {
        children.push(this.stepElement(part.step).element);
        return;
      }
      const last = i === parts.length - 1;
      if (part.end > part.start || (last && live)) {
        const container = h('div', { class: 'reply-text' });
        children.push(container);
        pieces.push({ container, start: part.start, end: part.end, live: last && live });
      }
    });
    this.body.replaceChildren(...children);
    this.segments = pieces.map((p) => this.draw(p.container, p.start, p.end, p.live));
  }

  /** A step's element: the one drawn for its id (updated), else a new one. */
  private stepElement(view: StepView): StepElement {
    let element = this.stepElements.get(view.id);
    if (element) {
      element.update(view);
    } else {
      element = new StepElement(view, this.ctx);
      this.stepElements.set(view.id, element);
    }
    return element;
  }

  /** A new step at `at`, within or at the end of the live piece: that piece ends there, the step and a new one follow. */
  private cut(view: StepView, at: number): void {
    const live = this.segments.at(-1);
    if (!live) {
      return;
    }
    if (live.container === this.body) {
      // The reply's first step: what is drawn moves into a piece of its own, as it is.
      const piece = h('div', { class: 'reply-text' });
      piece.append(...Array.from(this.body.childNodes));
      this.body.replaceChildren(piece);
      live.container = piece;
    }
    if (at < this.raw.length) {
      // The call was written before text already shown (a delta and the step crossed): that piece is cut there.
      live.renderer?.reset(this.raw.slice(live.start, at));
    }
    live.renderer?.finish();
    const next = h('div', { class: 'reply-text' });
    this.body.append(this.stepElement(view).element, next);
    this.segments.push(this.draw(next, at, this.raw.length, true));
  }

  /**
   * Draws the text from `start` to `end` into `container`: streaming, as a stream that already ended (very long or
   * formula-heavy text: frames of bounded work), or at once; the finished kinds get their source markers linked.
   */
  private draw(container: HTMLElement, start: number, end: number, live: boolean): Segment {
    const text = this.raw.slice(start, end);
    const { decorate, onRendered, linkMarkers } = this.ctx;
    if (live) {
      const renderer = new StreamRenderer(container, decorate, onRendered);
      renderer.reset(text);
      return { container, start, renderer };
    }
    if (text.length > LONG_REPLY_CHARS || manyFormulas(text)) {
      // Its source markers are linked in each piece as it is drawn (a section drawn again too).
      const linked: Decorate = linkMarkers
        ? (piece, stage) => {
            decorate(piece, stage);
            linkMarkers(piece);
          }
        : decorate;
      const renderer = new StreamRenderer(container, linked, onRendered);
      renderer.reset(text);
      renderer.finish();
      return { container, start, renderer };
    }
    renderMarkdownInto(container, text, decorate);
    linkMarkers?.(container);
    return { container, start };
  }
}
