/**
 * Normalization of the bodies the spec does not show. Tolerant of the common forms (see docs/architecture.md,
 * "Unknown shapes"); anything unrecognised becomes readable JSON instead of a failure or `[object Object]`.
 */

import { boundedJson } from './jsonText';
import { chunkText, partsText } from './replyShapes';

/** A source the encyclopedia cites. */
export interface Citation {
  title: string;
  url?: string;
}

/** One structured fact of an article. */
export interface Fact {
  name: string;
  value: string;
}

/** The answer to `GET /v1/axo/ask`. */
export interface Answer {
  query: string;
  model: string;
  text: string;
  citations: Citation[];
  /** True when the body had none of the known fields and `text` is the body as JSON. */
  unrecognised?: boolean;
}

/** One hit of `GET /v1/axo/search`. */
export interface SearchResult {
  title: string;
  snippet?: string;
  url?: string;
}

/** The body of `GET /v1/axo/article?facts=1`. */
export interface Article {
  title: string;
  summary?: string;
  content: string;
  url?: string;
  facts: Fact[];
  media: string[];
  citations: Citation[];
  unrecognised?: boolean;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first field among `names` holding a non-empty string. */
function pickString(o: Obj, names: string[]): string | undefined {
  for (const name of names) {
    const v = o[name];
    if (typeof v === 'string' && v.trim() !== '') {
      return v;
    }
  }
  return undefined;
}

/** Readable text for any JSON value: strings as they are, numbers and booleans printed, the rest as JSON. */
export function readable(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  if (value === null || value === undefined) {
    return '';
  }
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) {
    return value.map(readable).join(', ');
  }
  return boundedJson(value, { indent: 2 }) ?? '';
}

/**
 * Pretty JSON of an unrecognised body, as a fenced block: at most 32 levels deep and 100,000 characters, so a
 * deeply nested or huge body still shows (cut, ending with `…`) instead of failing with a stack overflow.
 */
export function unknownShape(body: unknown): string {
  return '```json\n' + (boundedJson(body, { indent: 2 }) ?? 'null') + '\n```';
}

/** The fields a chat reply has itself (not `response`, which is also an envelope when it holds an object). */
const CHAT_REPLY_FIELDS = [
  'content',
  'generated_text',
  'reply',
  'text',
  'output',
  'answer',
  'message',
  'choices',
  'output_text',
  'candidates',
];

/**
 * The reply text of a non-streaming chat response, from any of the known shapes (also inside an envelope:
 * `{data: {…}}`) or a plain-text body.
 */
export function normalizeChatReply(input: unknown): string {
  return chatReplyText(unwrapped(input, CHAT_REPLY_FIELDS)) ?? unknownShape(input);
}

/** The reply text of an unwrapped chat body; undefined when it is in none of the known shapes. */
function chatReplyText(body: unknown): string | undefined {
  if (typeof body === 'string') {
    return body;
  }
  if (Array.isArray(body) && body.length === 1 && !Array.isArray(body[0])) {
    // A list of one reply, as Hugging Face's inference API answers (`[{generated_text}]`); one level only.
    return chatReplyText(body[0]);
  }
  if (isObj(body)) {
    const direct = pickString(body, ['content', 'reply', 'text', 'output', 'response', 'answer', 'generated_text']);
    if (direct !== undefined) {
      return direct;
    }
    const message = body.message;
    if (isObj(message) && typeof message.content === 'string') {
      return message.content;
    }
    const choices = body.choices;
    if (Array.isArray(choices) && isObj(choices[0])) {
      const first = choices[0];
      if (isObj(first.message) && typeof first.message.content === 'string') {
        return first.message.content;
      }
      if (typeof first.text === 'string') {
        return first.text;
      }
    }
    // Anthropic's `content: [{type: 'text', text}]`, OpenAI's Responses `output_text`, Gemini's candidates.
    const parts = partsText(body.content) ?? pickString(body, ['output_text']) ?? chunkText(body);
    if (parts !== undefined) {
      return parts;
    }
    if (typeof body.content === 'string') {
      return body.content;
    }
    // `{message: "…"}`: last, since an object's `message` is also what an error or a status says.
    if (typeof message === 'string' && message.trim() !== '') {
      return message;
    }
  }
  return undefined;
}

/** Citations from `sources` / `citations` / `references`: strings (titles or URLs) or objects. */
export function normalizeCitations(o: Obj): Citation[] {
  const list = [o.sources, o.citations, o.references].find(Array.isArray) as unknown[] | undefined;
  if (!list) {
    return [];
  }
  const out: Citation[] = [];
  for (const item of list) {
    if (typeof item === 'string' && item.trim()) {
      out.push(/^https?:\/\//i.test(item) ? { title: item, url: item } : { title: item });
    } else if (isObj(item)) {
      const url = pickString(item, ['url', 'href', 'link']);
      const title = pickString(item, ['title', 'name', 'label']) ?? url;
      if (title) {
        out.push(url ? { title, url } : { title });
      }
    }
  }
  return out;
}

/** Envelopes services put a body in: `{data: …}`, `{result: …}`, `{response: …}`. */
const ENVELOPES = ['data', 'result', 'response'];

/**
 * What an envelope wraps, when `body` holds none of the `fields` a body of its kind has itself but one envelope
 * field holds an object or an array (two levels at most: `{data: {result: …}}`). Otherwise `body` as it is.
 */
function unwrapped(body: unknown, fields: readonly string[]): unknown {
  let current = body;
  for (let depth = 0; depth < 2; depth++) {
    if (!isObj(current)) {
      break;
    }
    const outer = current;
    const inner = fields.some((f) => f in outer)
      ? undefined
      : ENVELOPES.map((name) => outer[name]).find((v) => isObj(v) || Array.isArray(v));
    if (inner === undefined) {
      break;
    }
    current = inner;
  }
  return current;
}

/** The answer to an ask, also inside an envelope, or as an object `{answer: {text, sources}}`. */
export function normalizeAnswer(input: unknown, query: string, model: string): Answer {
  let body = unwrapped(input, ['answer', 'text', 'content', 'summary', 'extract']);
  if (isObj(body) && isObj(body.answer)) {
    // `{answer: {text, sources}, model}`: the answer's own fields, with what the outer object adds.
    const { answer, ...outer } = body;
    body = { ...outer, ...answer, answer: pickString(answer, ['text', 'content', 'answer', 'summary']) ?? '' };
  }
  if (typeof body === 'string') {
    return { query, model, text: body, citations: [] };
  }
  if (isObj(body)) {
    const text = pickString(body, ['answer', 'text', 'content', 'summary', 'extract']);
    const citations = normalizeCitations(body);
    if (text !== undefined || 'answer' in body) {
      return { query, model: pickString(body, ['model']) ?? model, text: text ?? '', citations };
    }
  }
  return { query, model, text: unknownShape(input), citations: [], unrecognised: true };
}

/** The hits of a search: a bare array, or `results` / `items` / `hits` / `data`, also inside an envelope. */
export function normalizeSearch(input: unknown): SearchResult[] {
  const body = unwrapped(input, ['results', 'items', 'hits', 'articles', 'pages']);
  let list: unknown = body;
  if (isObj(body)) {
    list = [body.results, body.items, body.hits, body.data, body.articles, body.pages].find(Array.isArray);
  } else if (isOpenSearch(body)) {
    // OpenSearch suggestions: [query, [titles], [descriptions], [urls]], as MediaWiki answers them.
    const [, titles, descriptions, urls] = body;
    list = titles.map((title, i) => ({
      title,
      description: Array.isArray(descriptions) ? descriptions[i] : undefined,
      url: Array.isArray(urls) ? urls[i] : undefined,
    }));
  }
  if (!Array.isArray(list)) {
    return [];
  }
  const out: SearchResult[] = [];
  for (const item of list) {
    if (typeof item === 'string' && item.trim()) {
      out.push({ title: item });
    } else if (isObj(item)) {
      const title = pickString(item, ['title', 'name', 'label']);
      if (title) {
        out.push({
          title,
          snippet: pickString(item, ['snippet', 'summary', 'description', 'extract', 'text', 'abstract', 'excerpt']),
          url: pickString(item, ['url', 'href', 'link']),
        });
      }
    }
  }
  return out;
}

/** `[query, [titles], …]`: the OpenSearch suggestions form. */
function isOpenSearch(body: unknown): body is [string, unknown[], unknown?, unknown?] {
  return Array.isArray(body) && body.length >= 2 && typeof body[0] === 'string' && Array.isArray(body[1]);
}

/**
 * Facts as an object, or an array of `{name|label|key|property, value}` or `[name, value]` pairs, or of
 * `"Name: value"` strings (a string without a colon is a fact of its own, with no value).
 */
export function normalizeFacts(facts: unknown): Fact[] {
  if (Array.isArray(facts)) {
    const out: Fact[] = [];
    for (const item of facts) {
      if (typeof item === 'string' && item.trim() !== '') {
        const colon = item.indexOf(':');
        out.push(
          colon > 0
            ? { name: item.slice(0, colon).trim(), value: item.slice(colon + 1).trim() }
            : { name: item.trim(), value: '' },
        );
      } else if (Array.isArray(item) && item.length === 2) {
        out.push({ name: readable(item[0]), value: readable(item[1]) });
      } else if (isObj(item)) {
        const name = pickString(item, ['name', 'label', 'key', 'property', 'title']);
        if (name) {
          out.push({ name, value: readable(item.value ?? item.val ?? item.text ?? '') });
        }
      }
    }
    return out;
  }
  if (isObj(facts)) {
    return Object.entries(facts).map(([name, value]) => ({ name, value: readable(value) }));
  }
  return [];
}

/** Media URLs from `media` / `images`: strings or objects with `url`/`src`. */
function normalizeMedia(o: Obj): string[] {
  const list = [o.media, o.images].find(Array.isArray) as unknown[] | undefined;
  const out: string[] = [];
  for (const item of list ?? []) {
    const url = typeof item === 'string' ? item : isObj(item) ? pickString(item, ['url', 'src', 'href']) : undefined;
    if (url) {
      out.push(url);
    }
  }
  return out;
}

/**
 * An article's text given in parts: `sections: [{title|heading, content|text}]` as Markdown with a heading per
 * section, or `paragraphs: [string]`. Undefined when there are none.
 */
function sectionsText(source: Obj): string | undefined {
  if (Array.isArray(source.paragraphs)) {
    const paragraphs = source.paragraphs.filter((p): p is string => typeof p === 'string' && p.trim() !== '');
    return paragraphs.length > 0 ? paragraphs.join('\n\n') : undefined;
  }
  if (!Array.isArray(source.sections)) {
    return undefined;
  }
  const parts = source.sections.filter(isObj).flatMap((section) => {
    const heading = pickString(section, ['title', 'heading', 'name']);
    const text = pickString(section, ['content', 'text', 'body']);
    return [heading ? `## ${heading}` : undefined, text].filter((p): p is string => p !== undefined);
  });
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

/** An article with facts, media and citations (also as `article`, or inside an envelope). */
export function normalizeArticle(input: unknown, requestedTitle: string): Article {
  const body = unwrapped(input, ['article', 'title', 'name', 'content', 'extract', 'text', 'body', 'summary']);
  const source = isObj(body) && isObj(body.article) ? body.article : body;
  if (isObj(source)) {
    const content =
      pickString(source, ['content', 'extract', 'text', 'body']) ??
      sectionsText(source) ??
      pickString(source, ['summary']);
    const title = pickString(source, ['title', 'name']);
    if (content !== undefined || title !== undefined) {
      return {
        title: title ?? requestedTitle,
        summary: pickString(source, ['summary', 'description']),
        content: content ?? '',
        url: pickString(source, ['url', 'link', 'href']),
        facts: normalizeFacts(source.facts ?? source.infobox ?? source.properties),
        media: normalizeMedia(source),
        citations: normalizeCitations(source),
      };
    }
  }
  return {
    title: requestedTitle,
    content: unknownShape(input),
    facts: [],
    media: [],
    citations: [],
    unrecognised: true,
  };
}
