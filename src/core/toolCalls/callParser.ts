import { checkCall } from './callCheck';
import { markerState } from './callForm';
import type { CallEvent, CallProblem, ToolSpec } from './toolSpec';

/** The most characters one call block may hold (a file's whole content fits); past it the call is refused. */
export const MAX_CALL_CHARS = 1_000_000;
/** An info string longer than this is no call marker (and is not kept). */
const MAX_INFO = 40;

/** Where the parser is on the current line of text. */
type LineState = 'indent' | 'fence' | 'info' | 'plain';
/** Where the parser is inside a call block. */
type CallPhase = 'between' | 'object' | 'junk' | 'afterClose';

/**
 * Reads a reply as it streams and takes the tool calls out of it (the form is in `callForm.ts`). Text outside calls
 * is reported as soon as it can be told from a call: only the start of a line that may still become a call marker
 * (up to three spaces, a fence, the first letters of `tool_call`) is held, and only until the line tells. A call is
 * held until its JSON object closes, then checked against the tools. Calls inside an ordinary fenced code block are
 * text. Each character is looked at a bounded number of times, so the work is linear in the reply.
 *
 * Slips accepted besides those of `checkCall`: `tool-call`/`toolcall`/any case/a trailing ` json` in the info
 * string; `~~~` fences; several objects in one block; raw line breaks and tabs inside JSON strings (escaped before
 * parsing); the closing fence on the JSON's own line, or missing when prose or the reply's end follows the object.
 * Refused (reported as `malformed`): text that is not JSON, a JSON value that is not a call, an unknown tool,
 * arguments that break the schema, a block the reply leaves open inside its JSON, a call over `MAX_CALL_CHARS`.
 * A marker after other text on the same line, or indented four spaces or more, is not a marker (text).
 */
export class CallParser {
  private out: CallEvent[] = [];
  private text = '';
  // Text mode: the current line.
  private line: LineState = 'indent';
  private indent = 0;
  private fenceChar = '';
  private fenceLen = 0;
  private info = '';
  private infoLong = false;
  private held = '';
  private code: { char: string; len: number } | undefined;
  // Call mode.
  private inCall = false;
  private phase: CallPhase = 'between';
  private raw = '';
  private json = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private objects = 0;
  private fenceRun = 0;
  private callFence = '`';
  private atLineStart = false;
  private tooLarge = false;

  constructor(private readonly tools: readonly ToolSpec[]) {}

  /** Reads the next piece of the reply; returns what can be told so far, in order. */
  feed(chunk: string): CallEvent[] {
    let i = 0;
    while (i < chunk.length) {
      if (this.inCall) {
        this.callChar(chunk[i]);
        i++;
      } else if (this.line === 'plain') {
        // The fast path: the rest of a line that is no fence goes out as it is.
        const end = chunk.indexOf('\n', i);
        if (end < 0) {
          this.text += chunk.slice(i);
          break;
        }
        this.text += chunk.slice(i, end + 1);
        this.newLine();
        i = end + 1;
      } else {
        this.lineChar(chunk[i]);
        i++;
      }
    }
    return this.take();
  }

  /** Ends the reply: what is still held is told (a call left open is malformed, a half marker is text). */
  end(): CallEvent[] {
    if (this.inCall) {
      if (this.phase === 'object') {
        this.malformed(unclosedProblem());
      } else if (this.phase === 'junk') {
        this.malformed(junkProblem());
      } else if (this.phase === 'between' && this.objects === 0) {
        this.malformed(this.fenceRun >= 3 ? emptyProblem() : unclosedProblem());
      }
      this.inCall = false;
    } else {
      this.text += this.held;
      this.held = '';
    }
    return this.take();
  }

  private take(): CallEvent[] {
    this.flushText();
    const events = this.out;
    this.out = [];
    return events;
  }

  private flushText(): void {
    if (this.text) {
      this.out.push({ type: 'text', text: this.text });
      this.text = '';
    }
  }

  /** One character at the start of a line in text mode (indent, fence, info string). */
  private lineChar(c: string): void {
    if (c === '\n') {
      this.endLine();
      return;
    }
    if (this.line === 'indent') {
      if (c === ' ' && this.indent < 3) {
        this.indent++;
      } else if (c === '`' || c === '~') {
        this.line = 'fence';
        this.fenceChar = c;
        this.fenceLen = 1;
      } else {
        this.line = 'plain';
      }
    } else if (this.line === 'fence') {
      if (c === this.fenceChar) {
        this.fenceLen++;
      } else {
        this.line = this.fenceLen >= 3 ? 'info' : 'plain';
        if (this.line === 'info') {
          this.addInfo(c);
        }
      }
    } else {
      this.addInfo(c);
    }
    this.keep(c);
  }

  private addInfo(c: string): void {
    if (this.fenceChar === '`' && c === '`') {
      // A backtick in a backtick fence's info string makes it inline code, not a fence.
      this.line = 'plain';
    } else if (this.info.length < MAX_INFO) {
      this.info += c;
    } else {
      this.infoLong = true;
    }
  }

  /** Holds `c` while the line may still become a call marker; otherwise lets it (and what was held) out. */
  private keep(c: string): void {
    if (this.held === '' && !this.mayBeMarker()) {
      this.text += c;
      return;
    }
    this.held += c;
    if (!this.mayBeMarker()) {
      this.text += this.held;
      this.held = '';
    }
  }

  private mayBeMarker(): boolean {
    if (this.code || this.line === 'plain' || this.infoLong) {
      return false;
    }
    return this.line !== 'info' || markerState(this.info) !== 'no';
  }

  private endLine(): void {
    const fence = (this.line === 'fence' || this.line === 'info') && this.fenceLen >= 3 && !this.infoLong;
    if (fence && !this.code && markerState(this.info) === 'complete') {
      this.openCall();
      return;
    }
    if (fence && this.code) {
      if (this.fenceChar === this.code.char && this.fenceLen >= this.code.len && this.info.trim() === '') {
        this.code = undefined;
      }
    } else if (fence) {
      this.code = { char: this.fenceChar, len: this.fenceLen };
    }
    this.text += `${this.held}\n`;
    this.held = '';
    this.newLine();
  }

  private newLine(): void {
    this.line = 'indent';
    this.indent = 0;
    this.fenceChar = '';
    this.fenceLen = 0;
    this.info = '';
    this.infoLong = false;
  }

  private openCall(): void {
    this.flushText();
    this.inCall = true;
    this.callFence = this.fenceChar;
    this.raw = '';
    this.held = '';
    this.phase = 'between';
    this.objects = 0;
    this.fenceRun = 0;
    this.atLineStart = true;
    this.tooLarge = false;
    this.newLine();
  }

  /** One character inside a call block. */
  private callChar(c: string): void {
    if (this.phase === 'afterClose') {
      this.afterClose(c);
      return;
    }
    if (this.raw.length < MAX_CALL_CHARS) {
      this.raw += c;
    } else {
      this.tooLarge = true;
    }
    if (this.phase === 'object') {
      this.objectChar(c);
    } else if (this.fenceRun > 0 && c !== this.callFence) {
      this.fenceEnded(c);
    } else if (c === this.callFence && (this.fenceRun > 0 || this.phase === 'between' || this.atLineStart)) {
      this.fenceRun++;
    } else if (this.phase === 'between') {
      this.betweenChar(c);
    }
    this.atLineStart = c === '\n';
  }

  private objectChar(c: string): void {
    if (!this.inString && (c === '`' || c === '~')) {
      // No JSON has a fence character outside a string: the object broke off, and this may be the closing fence.
      this.phase = 'junk';
      this.fenceRun = 1;
      return;
    }
    if (this.inString) {
      if (this.escaped) {
        this.escaped = false;
      } else if (c === '\\') {
        this.escaped = true;
      } else if (c === '"') {
        this.inString = false;
      } else if (c === '\n' || c === '\r' || c === '\t') {
        // A raw control character in a string is a common slip (a file's lines written as they are): escape it.
        this.addJson(c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t');
        return;
      }
    } else if (c === '"') {
      this.inString = true;
    } else if (c === '{' || c === '[') {
      this.depth++;
    } else if (c === '}' || c === ']') {
      this.depth--;
    }
    this.addJson(c);
    if (this.depth === 0) {
      this.objectClosed();
    }
  }

  private addJson(text: string): void {
    if (this.json.length < MAX_CALL_CHARS) {
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
      this.out.push(
        'call' in checked
          ? { type: 'call', call: checked.call, raw }
          : { type: 'malformed', problem: checked.problem, raw },
      );
    }
    this.json = '';
    this.raw = '';
    this.tooLarge = false;
  }

  private betweenChar(c: string): void {
    if (c === '{') {
      this.phase = 'object';
      this.depth = 1;
      this.inString = false;
      this.escaped = false;
      this.json = '{';
      this.raw = '{';
    } else if (!/\s/.test(c)) {
      if (this.objects > 0) {
        // Prose after a call with no closing fence: the block ended with its object.
        this.inCall = false;
        this.raw = '';
        this.line = this.atLineStart ? 'indent' : 'plain';
        if (this.line === 'plain') {
          this.text += c;
        } else {
          this.lineChar(c);
        }
      } else {
        this.phase = 'junk';
      }
    }
  }

  private fenceEnded(c: string): void {
    const run = this.fenceRun;
    this.fenceRun = 0;
    if (run < 3) {
      if (this.phase === 'between') {
        this.phase = this.objects > 0 ? 'between' : 'junk';
      }
      return;
    }
    if (this.phase === 'junk' || this.objects === 0) {
      // What was written, without the fence that closed it.
      this.raw = this.raw.slice(0, Math.max(0, this.raw.length - run - 1));
      this.malformed(this.phase === 'junk' ? junkProblem() : emptyProblem());
    }
    this.phase = 'afterClose';
    this.afterClose(c);
  }

  /** The rest of the closing fence's line: white space is dropped, anything else is text again. */
  private afterClose(c: string): void {
    if (c === '\n') {
      this.leaveCall('indent');
    } else if (!/\s/.test(c)) {
      this.leaveCall('plain');
      this.text += c;
    }
  }

  private leaveCall(line: LineState): void {
    this.inCall = false;
    this.raw = '';
    this.json = '';
    this.newLine();
    this.line = line;
  }

  private malformed(problem: CallProblem): void {
    this.flushText();
    this.out.push({ type: 'malformed', problem, raw: this.raw });
    this.raw = '';
  }
}

function unclosedProblem(): CallProblem {
  return { kind: 'unclosed', detail: 'The reply ended before the call block was complete.' };
}

function junkProblem(): CallProblem {
  return { kind: 'json', detail: 'The call block does not hold a JSON object.' };
}

function emptyProblem(): CallProblem {
  return { kind: 'shape', detail: 'The call block is empty.' };
}
