import { ServiceError, describeError, isAbortError } from '../service/errors';
import { articleForTool, type ArticleToolStructured } from '../encyclopedia/articleForTool';
import { clip, cleanText, type LookupRequest, type LookupValue } from '../encyclopedia/lookupTypes';
import { scrubKeyShapes } from '../service/keyShapes';
import { RESULT_FRAME, toolSpec, type AxoToolName } from './axoToolSpecs';
import { answerResult, searchResult, withinBudget } from './toolResults';

/** What a tool call gives back: text for the model, whether it reports a failure, and an article's data. */
export interface ToolOutcome {
  text: string;
  isError: boolean;
  /** `axo_article`'s result as data (MCP `structuredContent`). */
  structured?: ArticleToolStructured;
}

/** A tool's input, checked: its main string, and the section asked for (`axo_article`), when one is. */
export interface CheckedToolInput {
  value: string;
  section?: string;
}

/** Where the lookups of the tools come from, and how a missing key is set where they run. */
export interface ToolLookups {
  /** Looks a request up through the cache (normalised, keys scrubbed); rejects with a ServiceError. */
  lookup(request: LookupRequest, signal: AbortSignal): Promise<LookupValue>;
  /** The encyclopedia model `axo_ask` asks. */
  model(): string;
  /** The article a question names among the user's own looked-up terms, if any (inside VS Code). */
  aboutArticle?(question: string): string | undefined;
  /**
   * How the user sets the encyclopedia key where the tools run: "the command “AXO: Set Encyclopedia API Key”"
   * inside VS Code, "the AXO_API_KEY environment variable …" for the stdio server.
   */
  keyAdvice: string;
  /** Removes the user's own keys from text (the session's scrubber); a tool input passes it before it is sent. */
  scrubKeys?(text: string): string;
}

/**
 * A tool's input checked: its one string, trimmed, with key-shaped runs removed (`scrubKeyShapes`, then
 * `scrubKeys`: the user's own keys), and the optional section (a string; blank or null counts as absent); or the
 * sentence saying what is wrong with it. A model chooses the input, and a hostile answer may have asked it to look
 * up a secret.
 */
export function checkToolInput(
  name: string,
  input: unknown,
  scrubKeys: (text: string) => string = (text) => text,
): CheckedToolInput | { problem: string } {
  const spec = toolSpec(name);
  if (!spec) {
    return { problem: `There is no AXO tool named “${clip(String(name), 60)}”.` };
  }
  const raw = (input as Record<string, unknown> | null | undefined)?.[spec.argument];
  if (typeof raw !== 'string' || !raw.trim()) {
    return { problem: `${spec.name} needs a non-empty “${spec.argument}” string.` };
  }
  if (raw.length > spec.maxLength) {
    return {
      problem: `The ${spec.argument} is ${raw.length} characters long; ${spec.name} takes at most ${spec.maxLength}.`,
    };
  }
  const value = cleanText(scrubKeyShapes(scrubKeys(raw)));
  const optional = spec.optional;
  const section = optional && (input as Record<string, unknown>)[optional.name];
  if (!optional || section === undefined || section === null) {
    return { value };
  }
  if (typeof section !== 'string') {
    return { problem: `The ${optional.name} of ${spec.name} is a string (a name or a number from the outline).` };
  }
  if (section.length > optional.maxLength) {
    return {
      problem: `The ${optional.name} is ${section.length} characters long; ${spec.name} takes at most ${optional.maxLength}.`,
    };
  }
  const cleaned = cleanText(scrubKeyShapes(scrubKeys(section)));
  return cleaned ? { value, section: cleaned } : { value };
}

/**
 * Runs the three AXO tools for any caller (VS Code's tools, the MCP server in the extension host, the stdio server):
 * checks the input, looks it up, and turns the result, or the failure, into text the calling model can pass on.
 * Never throws and never returns a stack: a failure is one sentence.
 */
export class AxoToolRunner {
  constructor(private readonly lookups: ToolLookups) {}

  /** What the tool is doing, for progress: `Looking up “Alan Turing” in AXO`. */
  invocationMessage(name: string, input: unknown): string {
    const checked = this.check(name, input);
    const section = 'section' in checked && checked.section ? `, section “${clip(checked.section, 60)}”,` : '';
    const what = 'value' in checked ? `“${clip(checked.value, 80)}”${section}` : 'that';
    return name === 'axo_search' ? `Searching AXO for ${what}` : `Looking up ${what} in AXO`;
  }

  /**
   * Runs a tool; an aborted `signal` aborts the request. The result's first line is `RESULT_FRAME` (what follows is
   * quoted data), and the whole result holds at most the tool's budget.
   */
  async run(name: string, input: unknown, signal: AbortSignal): Promise<ToolOutcome> {
    const checked = this.check(name, input);
    if ('problem' in checked) {
      return { text: checked.problem, isError: true };
    }
    const budget = (toolSpec(name)?.budget ?? 0) - RESULT_FRAME.length - 2;
    try {
      const { text, structured } = await this.lookUp(name as AxoToolName, checked, signal, budget);
      return { text: `${RESULT_FRAME}\n\n${withinBudget(text, budget)}`, isError: false, structured };
    } catch (error) {
      return { text: withinBudget(this.failure(error, signal), budget), isError: true };
    }
  }

  private check(name: string, input: unknown): CheckedToolInput | { problem: string } {
    return checkToolInput(name, input, (text) => this.lookups.scrubKeys?.(text) ?? text);
  }

  private async lookUp(
    name: AxoToolName,
    { value, section }: CheckedToolInput,
    signal: AbortSignal,
    budget: number,
  ): Promise<{ text: string; structured?: ArticleToolStructured }> {
    switch (name) {
      case 'axo_ask': {
        const result = await this.lookups.lookup({ kind: 'ask', query: value, model: this.lookups.model() }, signal);
        const about = this.lookups.aboutArticle?.(value);
        return { text: result.kind === 'answer' ? answerResult(result.answer, about, budget) : '' };
      }
      case 'axo_search': {
        const result = await this.lookups.lookup({ kind: 'search', query: value }, signal);
        return { text: result.kind === 'search' ? searchResult(value, result.results, budget) : '' };
      }
      case 'axo_article': {
        const result = await this.lookups.lookup({ kind: 'article', title: value }, signal);
        return result.kind === 'article' ? articleForTool(result.article, { section, budget }) : { text: '' };
      }
    }
  }

  /** One sentence for a failure: what went wrong and what the user can do. */
  private failure(error: unknown, signal: AbortSignal): string {
    if (signal.aborted || isAbortError(error)) {
      return 'The AXO lookup was cancelled.';
    }
    if (!(error instanceof ServiceError)) {
      return `AXO could not answer: ${oneLine(describeError(error))}`;
    }
    const status = error.status === undefined ? '' : ` (HTTP ${error.status})`;
    switch (error.kind) {
      case 'missingKey':
        return `AXO is not set up: no encyclopedia API key is set. The user can set one with ${this.lookups.keyAdvice}.`;
      case 'badKey':
      case 'forbidden':
        return `AXO rejected the encyclopedia API key${status}. The user can set a valid one with ${this.lookups.keyAdvice}.`;
      case 'rateLimited':
        return error.retryAfterSeconds === undefined
          ? `AXO is limiting requests${status}: try again in a minute.`
          : `AXO is limiting requests${status}: try again in ${error.retryAfterSeconds} seconds.`;
      case 'timeout':
        return `AXO did not answer in time: ${oneLine(error.message)}`;
      case 'notFound':
        return `AXO has no such entry${status}: for an article, find its exact title with axo_search first.`;
      default:
        return quoted(`AXO could not answer: ${oneLine(error.message)}`);
    }
  }
}

/** A failure that carries the service's words, framed as a result is (`RESULT_FRAME`). */
function quoted(sentence: string): string {
  return `${RESULT_FRAME}\n\n${sentence}`;
}

/** A message on one line, bounded, so a failure is a sentence and never a dump. */
function oneLine(message: string): string {
  const line = clip(cleanText(message), 300);
  return /[.!?…]$/.test(line) ? line : `${line}.`;
}
