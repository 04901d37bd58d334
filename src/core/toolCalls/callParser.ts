import { CallBlock } from './callBlock';
import { markerState } from './callForm';
import type { CallEvent, ToolSpec } from './toolSpec';
/** An info string longer than this is no call marker (and is not kept). */
const MAX_INFO = 40;

/** What a piece that tells nothing returns (one array, not one per piece). */
const NOTHING: readonly CallEvent[] = [];

/** Where the parser is on the current line of text. */
type LineState = 'indent' | 'fence' | 'info' | 'plain';

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
  private block: CallBlock | undefined;
  // Text is cut from the chunk in runs rather than added a character at a time (which would leave the garbage
  // collector a string per character): `chunk[runStart, runEnd)` is text not yet added, `chunk[heldFrom, pos]`
  // the held part of this chunk (after `held`, the part from earlier chunks).
  private chunk = '';
  private pos = 0;
  private runStart = 0;
  private runEnd = -1;
  private heldFrom = -1;

  constructor(private readonly tools: readonly ToolSpec[]) {}

  /** Reads the next piece of the reply; returns what can be told so far, in order. */
  feed(chunk: string): readonly CallEvent[] {
    if (!chunk) {
      return NOTHING;
    }
    if (this.line === 'plain' && !this.block && !this.held && !chunk.includes('\n')) {
      // The most common piece of all: more of a plain line.
      return [{ type: 'text', text: chunk }];
    }
    if (!this.block && !this.held && !this.text && this.plainPiece(chunk)) {
      // The common piece: lines that can no longer be a marker, nothing held or waiting; it goes out whole.
      if (chunk.endsWith('\n')) {
        this.newLine();
      } else {
        this.line = 'plain';
      }
      return [{ type: 'text', text: chunk }];
    }
    this.chunk = chunk;
    this.runEnd = -1;
    this.heldFrom = this.held ? 0 : -1;
    let i = 0;
    while (i < chunk.length) {
      this.pos = i;
      if (this.block) {
        i = this.block.read(chunk, i);
        if (this.block.ended) {
          this.newLine();
          this.line = this.block.ended;
          this.block = undefined;
        }
      } else if (this.line === 'plain' || this.settledInfo()) {
        // The fast path: the rest of a line that can no longer become a marker goes out as it is.
        const end = chunk.indexOf('\n', i);
        if (this.line === 'info') {
          this.infoPiece(end < 0 ? chunk.slice(i) : chunk.slice(i, end));
        }
        this.emitRange(i, end < 0 ? chunk.length : end);
        if (end < 0) {
          break;
        }
        this.pos = end;
        this.endLine();
        i = end + 1;
      } else if (this.line === 'indent' && this.heldFrom < 0 && plainStart(chunk, i, this.indent)) {
        // A line that no fence can start (as far as the chunk goes): the plain path takes it from here.
        this.line = 'plain';
      } else if (this.line === 'indent' && this.indent === 0 && this.heldFrom < 0 && chunk.includes('\n', i)) {
        i = this.wholeLine(chunk, i, chunk.indexOf('\n', i));
      } else {
        this.lineChar(chunk[i]);
        i++;
      }
    }
    this.flushRun();
    if (this.heldFrom >= 0) {
      this.held = this.heldOf(chunk.length);
      this.heldFrom = -1;
    }
    this.chunk = '';
    return this.take();
  }

  /** Ends the reply: what is still held is told (a call left open is malformed, a half marker is text). */
  end(): readonly CallEvent[] {
    if (this.block) {
      this.block.end();
      this.block = undefined;
    } else {
      this.text += this.held;
      this.held = '';
    }
    return this.take();
  }

  private take(): readonly CallEvent[] {
    this.flushText();
    if (this.out.length === 0) {
      return NOTHING;
    }
    const events = this.out;
    this.out = [];
    return events;
  }

  private flushText(): void {
    this.flushRun();
    if (this.text) {
      this.out.push({ type: 'text', text: this.text });
      this.text = '';
    }
  }

  /**
   * Whether every line `chunk` reaches is plain text as soon as its indent ends: the current line is plain (or still
   * in its indent), and no line in the chunk starts, past up to three spaces, with what may begin a fence (a
   * backtick, a tilde) or ends the chunk within those spaces.
   */
  private plainPiece(chunk: string): boolean {
    if (this.line === 'indent' ? !plainStart(chunk, 0, this.indent) : this.line !== 'plain') {
      return false;
    }
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', nl + 1)) {
      if (!plainStart(chunk, nl + 1)) {
        return false;
      }
    }
    return true;
  }

  /** A line that starts at `i` and ends at `nl` in this chunk, told at once; returns where the next line starts. */
  private wholeLine(chunk: string, i: number, nl: number): number {
    let at = i;
    while (at < nl && at - i < 3 && chunk.charCodeAt(at) === 0x20) {
      at++;
    }
    const c = chunk[at];
    this.line = 'plain';
    if (c === '`' || c === '~') {
      let end = at;
      while (end < nl && chunk[end] === c) {
        end++;
      }
      if (end - at >= 3) {
        this.line = 'info';
        this.fenceChar = c;
        this.fenceLen = end - at;
        this.infoPiece(chunk.slice(end, nl));
      }
    }
    this.pos = nl;
    const marker = this.isMarker();
    if (!marker) {
      this.emitRange(i, nl);
    }
    this.endLine(marker);
    return nl + 1;
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
    this.keep();
  }

  /** A fence line whose info string can no longer be a marker: only its backticks and its blankness still count. */
  private settledInfo(): boolean {
    return this.line === 'info' && this.heldFrom < 0 && !this.mayBeMarker();
  }

  private infoPiece(piece: string): void {
    if (this.fenceChar === '`' && piece.includes('`')) {
      this.line = 'plain';
    } else if (this.info.length + piece.length <= MAX_INFO) {
      this.info += piece;
    } else {
      this.info += piece.slice(0, MAX_INFO - this.info.length);
      this.infoLong = true;
    }
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
  private keep(): void {
    const holding = this.heldFrom >= 0;
    if (!holding && !this.mayBeMarker()) {
      this.emitRange(this.pos, this.pos + 1);
      return;
    }
    if (!holding) {
      this.heldFrom = this.pos;
    }
    if (!this.mayBeMarker()) {
      this.releaseHeld(this.pos + 1);
    }
  }

  /** Adds `chunk[from, to)` to the text, joining the run before it when they touch. */
  private emitRange(from: number, to: number): void {
    if (this.runEnd !== from) {
      this.flushRun();
      this.runStart = from;
    }
    this.runEnd = to;
  }

  private flushRun(): void {
    if (this.runEnd > this.runStart) {
      this.text += this.chunk.slice(this.runStart, this.runEnd);
    }
    this.runEnd = -1;
  }

  /** The held text up to `to` in this chunk. */
  private heldOf(to: number): string {
    return this.held + (this.heldFrom >= 0 ? this.chunk.slice(this.heldFrom, to) : '');
  }

  /** What was held turns out to be text, up to `to` in this chunk. */
  private releaseHeld(to: number): void {
    if (this.held) {
      this.flushRun();
      this.text += this.held;
      this.held = '';
    }
    if (this.heldFrom >= 0) {
      this.emitRange(this.heldFrom, to);
    }
    this.heldFrom = -1;
  }

  private mayBeMarker(): boolean {
    if (this.code || this.line === 'plain' || this.infoLong) {
      return false;
    }
    return this.line !== 'info' || markerState(this.info) !== 'no';
  }

  /** Whether the line read so far is a whole call marker (a fence outside a code block, named as a call). */
  private isMarker(): boolean {
    const fence = (this.line === 'fence' || this.line === 'info') && this.fenceLen >= 3;
    return fence && !this.code && !this.infoLong && markerState(this.info) === 'complete';
  }

  private endLine(marker = this.isMarker()): void {
    const fence = (this.line === 'fence' || this.line === 'info') && this.fenceLen >= 3;
    if (marker) {
      this.openCall();
      return;
    }
    if (fence && this.code) {
      const blank = !this.infoLong && this.info.trim() === '';
      if (this.fenceChar === this.code.char && this.fenceLen >= this.code.len && blank) {
        this.code = undefined;
      }
    } else if (fence) {
      this.code = { char: this.fenceChar, len: this.fenceLen };
    }
    this.releaseHeld(this.pos);
    this.emitRange(this.pos, this.pos + 1);
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
    this.block = new CallBlock(this.tools, this.fenceChar, (event) => this.out.push(event));
    this.held = '';
    this.heldFrom = -1;
    this.newLine();
  }
}

/**
 * Whether a line whose indent goes on at `chunk[at]`, `indent` spaces already read, is plain text once its indent
 * ends: past up to three spaces in all comes neither a backtick nor a tilde (a fourth space makes it no fence). A
 * chunk that ends before its indent does cannot tell, unless the line has not started (the state is then the one
 * a new line has).
 */
function plainStart(chunk: string, at: number, indent = 0): boolean {
  let k = at;
  while (k - at + indent < 3 && chunk.charCodeAt(k) === 0x20) {
    k++;
  }
  if (k >= chunk.length) {
    return k === at && indent === 0;
  }
  const c = chunk.charCodeAt(k);
  return c !== 0x60 && c !== 0x7e;
}
