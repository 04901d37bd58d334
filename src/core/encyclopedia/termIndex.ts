/** A token of text: a word (letters, digits, marks, `_`), one CJK character, or one other visible character. */
export interface Token {
  text: string;
  start: number;
  end: number;
}

/** A phrase found in a line. */
export interface TermMatch {
  /** The phrase as it was indexed (the looked-up title or query). */
  phrase: string;
  /** What the phrase points to (a cache key). */
  key: string;
  start: number;
  end: number;
}

interface Term {
  phrase: string;
  tokens: string[];
  key: string;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const TOKEN = /[\p{L}\p{N}\p{M}_]+|\S/gu;

/** Longest phrase indexed, in characters; longer ones (long questions) are not matched in text. */
export const MAX_PHRASE_CHARS = 200;

/**
 * Splits text into lower-cased tokens with their offsets (relative to `offset`). CJK scripts have no spaces
 * between words, so each of their characters is a token of its own.
 */
export function tokenize(text: string, offset = 0): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    const word = m[0];
    const start = offset + m.index;
    if (word.length > 1 && hasWideChar(word) && CJK.test(word)) {
      splitCjk(word, start, out);
    } else {
      out.push({ text: word.toLowerCase(), start, end: start + word.length });
    }
  }
  return out;
}

function hasWideChar(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    if (word.charCodeAt(i) >= 0x2e80) {
      return true;
    }
  }
  return false;
}

/** Pushes a word run holding CJK characters as one token per CJK character and runs of the rest. */
function splitCjk(word: string, start: number, out: Token[]): void {
  let run = '';
  let runStart = start;
  let at = start;
  for (const ch of word) {
    if (CJK.test(ch)) {
      if (run) {
        out.push({ text: run.toLowerCase(), start: runStart, end: at });
        run = '';
      }
      out.push({ text: ch, start: at, end: at + ch.length });
    } else {
      if (!run) {
        runStart = at;
      }
      run += ch;
    }
    at += ch.length;
  }
  if (run) {
    out.push({ text: run.toLowerCase(), start: runStart, end: at });
  }
}

/**
 * The looked-up phrases (article titles, ask queries), found in a line of text as whole phrases, ignoring case
 * and the amount of white space between words. Lookups cost a few map reads whatever the number of phrases.
 */
export class TermIndex {
  private readonly byFirstToken = new Map<string, Term[]>();
  private readonly byPhrase = new Map<string, Term>();
  private maxTokens = 1;
  private maxChars = 1;

  /** Number of phrases indexed. */
  get size(): number {
    return this.byPhrase.size;
  }

  /** Indexes `phrase` as pointing to `key` (replacing what it pointed to). Returns false when it cannot be. */
  add(phrase: string, key: string): boolean {
    const tokens = tokenize(phrase.trim()).map((t) => t.text);
    if (!tokens.length || phrase.length > MAX_PHRASE_CHARS) {
      return false;
    }
    const id = tokens.join(' ');
    this.removeId(id);
    const term: Term = { phrase: phrase.trim(), tokens, key };
    this.byPhrase.set(id, term);
    const list = this.byFirstToken.get(tokens[0]);
    if (list) {
      list.push(term);
    } else {
      this.byFirstToken.set(tokens[0], [term]);
    }
    this.maxTokens = Math.max(this.maxTokens, tokens.length);
    this.maxChars = Math.max(this.maxChars, phrase.length);
    return true;
  }

  /** Removes `phrase` if it still points to `key` (or whatever it points to when no key is given). */
  remove(phrase: string, key?: string): void {
    const id = tokenize(phrase.trim())
      .map((t) => t.text)
      .join(' ');
    const term = this.byPhrase.get(id);
    if (term && (key === undefined || term.key === key)) {
      this.removeId(id);
    }
  }

  /** Removes every phrase. */
  clear(): void {
    this.byFirstToken.clear();
    this.byPhrase.clear();
    this.maxTokens = 1;
    this.maxChars = 1;
  }

  /** The key a phrase points to, if indexed. */
  keyOf(phrase: string): string | undefined {
    const id = tokenize(phrase.trim())
      .map((t) => t.text)
      .join(' ');
    return this.byPhrase.get(id)?.key;
  }

  /** The longest indexed phrase in `line` covering the character at `character`, if any. */
  match(line: string, character: number): TermMatch | undefined {
    if (!this.byPhrase.size) {
      return undefined;
    }
    // Text around the position, wide enough for the longest phrase even with extra white space between its words.
    const window = Math.min(2 * MAX_PHRASE_CHARS, 2 * this.maxChars + 16);
    const from = Math.max(0, character - window);
    const tokens = tokenize(line.slice(from, character + window), from);
    const at = tokens.findIndex((t) => t.start <= character && character < t.end);
    if (at < 0) {
      return undefined;
    }
    let best: TermMatch | undefined;
    for (let i = Math.max(0, at - this.maxTokens + 1); i <= at; i++) {
      for (const term of this.byFirstToken.get(tokens[i].text) ?? []) {
        const n = term.tokens.length;
        if (
          i + n - 1 < at ||
          i + n > tokens.length ||
          (best && best.end - best.start >= tokens[i + n - 1].end - tokens[i].start)
        ) {
          continue;
        }
        if (sameTokens(tokens, i, term.tokens) && isBounded(line, tokens[i].start, tokens[i + n - 1].end)) {
          best = { phrase: term.phrase, key: term.key, start: tokens[i].start, end: tokens[i + n - 1].end };
        }
      }
    }
    return best;
  }

  /**
   * Every indexed phrase in `text`, left to right, as whole phrases (the same rule as {@link match}: case and the
   * white space between words do not matter, a phrase does not match inside a longer word); where phrases overlap,
   * the longest one starting first wins and the scan goes on after it.
   */
  findAll(text: string): TermMatch[] {
    const found: TermMatch[] = [];
    if (!this.byPhrase.size) {
      return found;
    }
    const tokens = tokenize(text);
    for (let i = 0; i < tokens.length;) {
      let best: { term: Term; end: number } | undefined;
      for (const term of this.byFirstToken.get(tokens[i].text) ?? []) {
        const n = term.tokens.length;
        if (i + n > tokens.length || (best && best.term.tokens.length >= n)) {
          continue;
        }
        if (sameTokens(tokens, i, term.tokens) && isBounded(text, tokens[i].start, tokens[i + n - 1].end)) {
          best = { term, end: tokens[i + n - 1].end };
        }
      }
      if (best) {
        found.push({ phrase: best.term.phrase, key: best.term.key, start: tokens[i].start, end: best.end });
        i += best.term.tokens.length;
      } else {
        i++;
      }
    }
    return found;
  }

  private removeId(id: string): void {
    const term = this.byPhrase.get(id);
    if (!term) {
      return;
    }
    this.byPhrase.delete(id);
    const list = this.byFirstToken.get(term.tokens[0]);
    const rest = list?.filter((t) => t !== term) ?? [];
    if (rest.length) {
      this.byFirstToken.set(term.tokens[0], rest);
    } else {
      this.byFirstToken.delete(term.tokens[0]);
    }
  }
}

function sameTokens(tokens: Token[], at: number, expected: string[]): boolean {
  for (let j = 1; j < expected.length; j++) {
    if (tokens[at + j].text !== expected[j]) {
      return false;
    }
  }
  return true;
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** A phrase whose edge is a word character must not continue a longer word ("Turing" is not in "Turingery"). */
function isBounded(line: string, start: number, end: number): boolean {
  const before = line[start - 1];
  const after = line[end];
  const first = line[start];
  const last = line[end - 1];
  const joins = (a: string | undefined, b: string | undefined) =>
    a !== undefined &&
    b !== undefined &&
    WORD_CHAR.test(a) &&
    WORD_CHAR.test(b) &&
    !CJK_CHAR.test(a) &&
    !CJK_CHAR.test(b);
  return !joins(before, first) && !joins(last, after);
}
