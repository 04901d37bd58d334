import { checkCall } from './callCheck';
import type { CallEvent, CallProblem, ToolSpec } from './toolSpec';

/** The most characters one call block may hold (a file's whole content fits); past it the call is refused. */
export const MAX_CALL_CHARS = 1_000_000;

/** Where the reader is inside a call block. */
type CallPhase = 'between' | 'object' | 'junk' | 'afterClose';

/**
 * One `tool_call` block, read after its marker line: the JSON objects in it (each one reported as a call or as
 * malformed the moment it closes), up to its closing fence, or to prose or the reply's end after an object. JSON
 * is followed by its strings and braces, so neither a fence nor a brace inside a string ends a call; a fence
 * character outside a string means the object broke off. Objects are read a slice at a time.
 */
export class CallBlock {
  /** Set when the block has ended: how the text goes on (`indent` at a line's start, `plain` within a line). */
  ended: 'indent' | 'plain' | undefined;
  private phase: CallPhase = 'between';
  private raw = '';
  private json = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private objects = 0;
  private fenceRun = 0;
  private atLineStart = true;
  private tooLarge = false;
  private brokeOff = false;

  constructor(
    private readonly tools: readonly ToolSpec[],
    private readonly fence: string,
    private readonly emit: (event: CallEvent) => void,
  ) {}

  /** Reads `chunk` from `from` until the block ends or the chunk does; returns the first index not consumed. */
  read(chunk: string, from: number): number {
    let i = from;
    while (i < chunk.length && !this.ended) {
      if (this.phase === 'object') {
        i = this.objectRun(chunk, i);
      } else if (this.callChar(chunk[i])) {
        i++;
      }
    }
    return i;
  }

  /** The reply ended inside the block: a call left open is malformed. */
  end(): void {
    if (this.phase === 'object') {
      this.malformed(unclosedProblem());
    } else if (this.phase === 'junk') {
      this.malformed(junkProblem(this.brokeOff));
    } else if (this.phase === 'between' && this.objects === 0) {
      this.malformed(this.fenceRun >= 3 ? emptyProblem() : unclosedProblem());
    }
    this.ended = 'indent';
  }

  /** One character outside an object; false when it is not the block's (the text goes on with it). */
  private callChar(c: string): boolean {
    if (this.phase === 'afterClose') {
      return this.afterClose(c);
    }
    this.addRaw(c);
    let consumed = true;
    if (this.fenceRun > 0 && c !== this.fence) {
      consumed = this.fenceEnded(c);
    } else if (c === this.fence && (this.fenceRun > 0 || this.phase === 'between' || this.atLineStart)) {
      this.fenceRun++;
    } else if (this.phase === 'between') {
      consumed = this.betweenChar(c);
    }
    this.atLineStart = c === '\n';
    return consumed;
  }

  /**
   * The JSON of a call from `chunk[from]` on, a slice at a time: to the end of its object, the end of the chunk, or a
   * fence character outside a string. Returns where it stopped.
   */
  private objectRun(chunk: string, from: number): number {
    let seg = from;
    for (let j = from; j < chunk.length; j++) {
      const code = chunk.charCodeAt(j);
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
        } else if (code === 0x5c) {
          this.escaped = true;
        } else if (code === 0x22) {
          this.inString = false;
        } else if (code === 0x0a || code === 0x0d || code === 0x09) {
          // A raw control character in a string is a common slip (a file's lines written as they are): escape it.
          this.addJson(chunk.slice(seg, j) + (code === 0x0a ? '\\n' : code === 0x0d ? '\\r' : '\\t'));
          seg = j + 1;
        }
      } else if (code === 0x22) {
        this.inString = true;
      } else if (code === 0x7b || code === 0x5b) {
        this.depth++;
      } else if (code === 0x7d || code === 0x5d) {
        this.depth--;
        if (this.depth === 0) {
          this.addJson(chunk.slice(seg, j + 1));
          this.addRaw(chunk.slice(from, j + 1));
          this.atLineStart = false;
          this.objectClosed();
          return j + 1;
        }
      } else if (code === 0x60 || code === 0x7e) {
        // No JSON has a fence character outside a string: the object broke off, and this may be the closing fence.
        this.addJson(chunk.slice(seg, j));
        this.addRaw(chunk.slice(from, j + 1));
        this.phase = 'junk';
        this.fenceRun = 1;
        this.brokeOff = true;
        this.atLineStart = false;
        return j + 1;
      }
    }
    this.addJson(chunk.slice(seg));
    this.addRaw(chunk.slice(from));
    this.atLineStart = chunk.endsWith('\n');
    return chunk.length;
  }

  private addRaw(text: string): void {
    if (this.raw.length + text.length <= MAX_CALL_CHARS) {
      this.raw += text;
    } else {
      this.tooLarge = true;
    }
  }

  private addJson(text: string): void {
    if (this.json.length + text.length <= MAX_CALL_CHARS) {
      this.json += text;
    } else {
      this.tooLarge = true;
    }
  }

  private objectClosed(): void {
    this.phase = 'between';
    this.objects++;
    if (this.tooLarge) {
      this.malformed({
        kind: 'tooLarge',
        detail: `The call is longer than ${MAX_CALL_CHARS.toLocaleString('en')} characters.`,
      });
    } else {
      const checked = checkCall(this.json, this.tools);
      const raw = this.raw;
      this.emit(
        'call' in checked
          ? { type: 'call', call: checked.call, raw }
          : { type: 'malformed', problem: checked.problem, raw },
      );
    }
    this.json = '';
    this.raw = '';
    this.tooLarge = false;
  }

  /** A character between objects; false (not consumed) when it is prose after a call with no closing fence. */
  private betweenChar(c: string): boolean {
    if (c === '{' || c === '[') {
      this.phase = 'object';
      this.depth = 1;
      this.inString = false;
      this.escaped = false;
      this.brokeOff = false;
      this.json = c;
      this.raw = c;
    } else if (!/\s/.test(c)) {
      if (this.objects > 0) {
        this.ended = this.atLineStart ? 'indent' : 'plain';
        return false;
      }
      this.phase = 'junk';
    }
    return true;
  }

  /** The character after a run of fence characters; a run of three or more closes the block. */
  private fenceEnded(c: string): boolean {
    const run = this.fenceRun;
    this.fenceRun = 0;
    if (run < 3) {
      if (this.phase === 'between' && this.objects === 0) {
        this.phase = 'junk';
      }
      return true;
    }
    if (this.phase === 'junk' || this.objects === 0) {
      // What was written, without the fence that closed it.
      this.raw = this.raw.slice(0, Math.max(0, this.raw.length - run - 1));
      this.malformed(this.phase === 'junk' ? junkProblem(this.brokeOff) : emptyProblem());
    }
    this.phase = 'afterClose';
    return this.afterClose(c);
  }

  /** The rest of the closing fence's line: white space is dropped, anything else is text again. */
  private afterClose(c: string): boolean {
    if (c === '\n') {
      this.ended = 'indent';
    } else if (!/\s/.test(c)) {
      this.ended = 'plain';
      return false;
    }
    return true;
  }

  private malformed(problem: CallProblem): void {
    this.emit({ type: 'malformed', problem, raw: this.raw });
    this.raw = '';
  }
}
function unclosedProblem(): CallProblem {
  return { kind: 'unclosed', detail: 'The reply ended before the call block was complete.' };
}

function junkProblem(brokeOff: boolean): CallProblem {
  const detail = brokeOff
    ? 'The call is not valid JSON: its object breaks off before it is closed.'
    : 'The call block does not hold a JSON object.';
  return { kind: 'json', detail };
}

function emptyProblem(): CallProblem {
  return { kind: 'shape', detail: 'The call block is empty.' };
}
