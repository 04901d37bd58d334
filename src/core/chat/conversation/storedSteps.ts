import * as l10n from '@vscode/l10n';
import type { Citation } from '../../service/normalize';
import type { StepReview, StepStatus, ToolStep } from '../tools/chatTool';
import type { StoredMessage } from './conversation';

/**
 * How much of a reply's tool steps a conversation keeps. A step's result is shown again when the step is opened after
 * a reload or an import; a read or a search sends ALPHA up to 16,000 characters (toolHistory's RESULT_BUDGET) and a
 * reply may make several calls, so a conversation file keeps the start of each result and says how much it left out.
 */
export const STEP_BOUNDS = {
  /** Characters of a step's result kept, the sentence saying what was left out included. */
  resultChars: 4_000,
  /** Characters of the JSON of a step's input: its entries are kept in order while they fit. */
  inputChars: 4_000,
  /** Steps of one reply: far more than the calls a reply may make; the rest of a file that has more is dropped. */
  steps: 200,
  /** Characters of a step's title, on one line. */
  titleChars: 500,
  /** Sources of one step. */
  sources: 50,
  /** Characters of a step's id, its tool's name, a review's file and id. */
  shortChars: 1_024,
} as const;

/** The message a reply's steps belong to, as far as reading them needs it. */
export interface StepOwner {
  /** The message's id: a step without an id of its own gets one made from it, the same wherever the file is read. */
  id: string;
  /** The reply's text: a step's offset lies within it. */
  content: string;
  /** The reply is still being written: only then may a step be running. */
  streaming: boolean;
}

const STATUSES: ReadonlySet<string> = new Set<StepStatus>(['running', 'done', 'refused', 'failed', 'stopped']);

/**
 * A reply's steps as the conversation keeps them, from what a file, an import or the running reply holds. Read field
 * by field (a file may hold anything): a step without a tool's name is dropped; a missing id is made from the
 * message's, a repeated one too; a wrong input is empty, a wrong title names the tool, an unknown status is
 * `stopped`, as is a `running` one when the reply is no longer written (nothing resumes a call); a result is cut to
 * STEP_BOUNDS.resultChars; offsets lie within the text, in order (a wrong one takes the step before's). Undefined when
 * no step is left.
 */
export function parseSteps(value: unknown, owner: StepOwner): ToolStep[] | undefined {
  if (!Array.isArray(value)) {
    return undefined;
  }
  const steps: ToolStep[] = [];
  const ids = new Set<string>();
  let offset = 0;
  for (let i = 0; i < value.length && steps.length < STEP_BOUNDS.steps; i++) {
    const raw: unknown = value[i];
    if (!isRecord(raw) || !isShort(raw.tool)) {
      continue;
    }
    const id = isShort(raw.id) && !ids.has(raw.id) ? raw.id : freeId(`${owner.id}-step-${i + 1}`, ids);
    ids.add(id);
    offset = stepOffset(raw.offset, offset, owner.content.length);
    const status = typeof raw.status === 'string' && STATUSES.has(raw.status) ? (raw.status as StepStatus) : 'stopped';
    const step: ToolStep = {
      id,
      tool: raw.tool,
      input: boundedInput(raw.input),
      title: stepTitle(raw.title, raw.tool),
      status: status === 'running' && !owner.streaming ? 'stopped' : status,
      offset,
    };
    if (typeof raw.result === 'string') {
      step.result = storedResult(raw.result);
    }
    const sources = stepSources(raw.sources);
    if (sources) {
      step.sources = sources;
    }
    const review = stepReview(raw.review);
    if (review) {
      step.review = review;
    }
    steps.push(step);
  }
  return steps.length ? steps : undefined;
}

/** A message's steps as its file and a JSON export keep them (see parseSteps); undefined when it has none. */
export function keptSteps(message: StoredMessage): ToolStep[] | undefined {
  return parseSteps(message.steps, {
    id: message.id,
    content: message.content,
    streaming: message.status === 'streaming',
  });
}

/**
 * A step's result as a conversation keeps it: whole up to STEP_BOUNDS.resultChars, else its start and a sentence
 * saying how many characters were left out, the two together within the bound (so reading it again changes nothing).
 */
export function storedResult(text: string): string {
  const max = STEP_BOUNDS.resultChars;
  if (text.length <= max) {
    return text;
  }
  // The sentence for the most that could be left out is at least as long as the one written: both fit.
  let keep = max - leftOut(text.length).length;
  if (isHighSurrogate(text.charCodeAt(keep - 1))) {
    keep--;
  }
  return text.slice(0, keep) + leftOut(text.length - keep);
}

/** The sentence ending a cut result. */
function leftOut(chars: number): string {
  return `\n${l10n.t('[… {0} more characters of this result were not kept with the conversation]', chars)}`;
}

/** Where a step sits: its offset within the text and not before the step before it's; else that step's. */
function stepOffset(value: unknown, previous: number, length: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return previous;
  }
  return Math.min(length, Math.max(previous, Math.floor(value)));
}

/** The step's title on one line within its bound; the tool's name when it has none. */
function stepTitle(value: unknown, tool: string): string {
  const line = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
  if (!line) {
    return `\`${tool.replace(/`/g, '')}\``;
  }
  if (line.length <= STEP_BOUNDS.titleChars) {
    return line;
  }
  const keep = STEP_BOUNDS.titleChars - 1;
  return `${line.slice(0, isHighSurrogate(line.charCodeAt(keep - 1)) ? keep - 1 : keep)}…`;
}

/** A step's input: an object, its entries in order while their JSON fits STEP_BOUNDS.inputChars (the rest left out). */
function boundedInput(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) {
    return {};
  }
  const input: Record<string, unknown> = {};
  let room = STEP_BOUNDS.inputChars;
  for (const [key, entry] of Object.entries(value)) {
    if (key === '__proto__') {
      continue; // JSON.parse makes it an own key; set here, it would replace the input's prototype
    }
    const size = key.length + jsonLength(entry, room);
    if (size <= room) {
      input[key] = entry;
      room -= size;
    }
  }
  return input;
}

/** The length of `value` as JSON, or more than `room` when it would not fit (or is not JSON at all). */
function jsonLength(value: unknown, room: number): number {
  if (typeof value === 'string') {
    // A long string is judged by its length before anything is copied.
    return value.length > room ? room + 1 : JSON.stringify(value).length;
  }
  try {
    return JSON.stringify(value)?.length ?? room + 1;
  } catch {
    return room + 1;
  }
}

function stepSources(value: unknown): Citation[] | undefined {
  if (!Array.isArray(value)) {
    return undefined;
  }
  const sources: Citation[] = [];
  for (const c of value) {
    if (sources.length >= STEP_BOUNDS.sources) {
      break;
    }
    if (isRecord(c) && typeof c.title === 'string') {
      sources.push(typeof c.url === 'string' ? { title: c.title, url: c.url } : { title: c.title });
    }
  }
  return sources.length ? sources : undefined;
}

function stepReview(value: unknown): StepReview | undefined {
  return isRecord(value) && isShort(value.file) && isShort(value.id) ? { file: value.file, id: value.id } : undefined;
}

/** `base`, or `base` with a number after it, whichever `taken` does not hold yet. */
function freeId(base: string, taken: ReadonlySet<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) {
    id = `${base}-${n}`;
  }
  return id;
}

function isShort(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= STEP_BOUNDS.shortChars;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
