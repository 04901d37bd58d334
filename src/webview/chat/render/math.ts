import temml from 'temml';
import * as l10n from '@vscode/l10n';
import type { MarkedExtension, RendererThis, TokenizerExtension, RendererExtension, Tokens } from 'marked';
import { FormulaCache } from './formulaCache';
import { mathMarkup } from './mathMarkup';
import './math.css';
import {
  BLOCK_OPENER,
  closedBlockStart,
  endsBlank,
  firstInlineOpener,
  noteBlockPlace,
  noteInlinePlace,
  parenCloser,
} from './mathScan';

/**
 * TeX math in Markdown, as models write it, rendered as MathML (which Chromium draws natively) by Temml:
 * - `$…$` and `\(…\)` inline; `$$…$$` inline is display math;
 * - `$$…$$` and `\[…\]` as a block: the opener at the start of a line, the closer at the end of a line, no blank line
 *   between (a blank line ends a paragraph, so an opener without a closer before it is text as written).
 *
 * Dollar amounts stay text by the rule Pandoc uses: an opening `$` has no space after it, a closing `$` has no space
 * before it and no digit after it, and a formula holds no unescaped `$` (so "it costs $5 and $10" has no closer).
 * `\[` is read as display math only as a block: inside a line CommonMark reads it as an escaped bracket.
 *
 * While a reply streams, an unfinished formula is text: a block opener whose closer has not come yet takes the rest of
 * the text as one plain paragraph, which stays the live block until it closes (or a blank line shows it never will),
 * so no block before it is finished early with a different reading.
 */
export const mathExtension: MarkedExtension = {
  extensions: [mathBlockExtension(), inlineMathExtension()],
  hooks: { emStrongMask: maskFormulas },
  tokenizer: { lheading: headingBeforeFormula },
};

/** A formula's TeX longer than this is not rendered (inline: not read as math at all; a block: shown as source). */
export const MAX_FORMULA_CHARS = 4_000;

/** A formula token: inline (`math`) or a block (`mathBlock`; `closed` false while its closer has not come). */
interface MathToken extends Tokens.Generic {
  type: 'math' | 'mathBlock';
  raw: string;
  tex: string;
  display: boolean;
  closed: boolean;
}

function mathBlockExtension(): TokenizerExtension & RendererExtension {
  return {
    name: 'mathBlock',
    level: 'block',
    // A paragraph is cut where a formula block that closes begins (one that does not close yet stays in the paragraph,
    // which stays the live block while it is the last). One pass per paragraph answers every block (mathScan.ts).
    start: closedBlockStart,
    tokenizer(src: string): MathToken | undefined {
      noteBlockPlace(src);
      const open = BLOCK_OPENER.exec(src);
      return open && !endsBlank(src) ? blockFrom(src, open[0].length, open[1] === '$$' ? '$$' : '\\]') : undefined;
    },
    renderer(token: Tokens.Generic): string {
      const math = token as MathToken;
      if (!math.closed) {
        return `<p>${escapeText(math.raw.trim())}</p>\n`;
      }
      const rendered = drawnFormula(math.tex, true);
      return rendered.ok
        ? `<div class="math-block">${rendered.html}</div>\n`
        : `<p class="math-source">${sourceCode(math.raw.trim(), rendered.html)}</p>\n`;
    },
  };
}

/**
 * A setext heading's text cannot hold a formula block: `Text` / `$$x$$` / `---` is a paragraph, a formula and a rule,
 * as it is read while it streams (the paragraph is finished when the formula closes, before the rule comes). Returns
 * false (marked reads the heading) unless an underline could only come after a formula block that closes.
 */
function headingBeforeFormula(src: string): false | undefined {
  const at = closedBlockStart(src.slice(1));
  return at !== undefined && !UNDERLINE.test(src.slice(0, at + 1)) ? undefined : false;
}

/** A setext heading's underline. */
const UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/m;

/**
 * The block opened at the start of `src` (its opener ends at `from`): closed by `closer` at the end of a line;
 * not one when a blank line comes first; unfinished (the rest of the text, shown as text) when the text ends first.
 */
function blockFrom(src: string, from: number, closer: string): MathToken | undefined {
  for (let start = from, first = true; ; first = false) {
    const eol = src.indexOf('\n', start);
    const end = eol < 0 ? src.length : eol;
    const line = src.slice(start, end).trimEnd();
    if (!first && !line.trim() && eol >= 0) {
      return undefined;
    }
    if (line.endsWith(closer) && (!first || line.length >= closer.length + 1)) {
      const tex = src.slice(from, start + line.length - closer.length).trim();
      if (!tex) {
        return undefined;
      }
      const raw = src.slice(0, eol < 0 ? end : eol + 1);
      return { type: 'mathBlock', raw, tex, display: true, closed: true };
    }
    if (eol < 0) {
      return { type: 'mathBlock', raw: src, tex: '', display: true, closed: false };
    }
    start = eol + 1;
  }
}

function inlineMathExtension(): TokenizerExtension & RendererExtension {
  return {
    name: 'math',
    level: 'inline',
    // Each text of a token list is scanned once for openers (mathScan.ts), not to its end at every token.
    start: firstInlineOpener,
    tokenizer(src: string, tokens: object): MathToken | undefined {
      noteInlinePlace(src, tokens);
      const found = src.startsWith('\\(') ? parenthesised(src, tokens) : src.startsWith('$') ? dollars(src) : undefined;
      if (!found) {
        return undefined;
      }
      return { type: 'math', raw: src.slice(0, found.end), tex: found.tex, display: found.display, closed: true };
    },
    renderer(this: RendererThis, token: Tokens.Generic): string {
      const math = token as MathToken;
      const rendered = drawnFormula(math.tex, math.display);
      return rendered.ok ? rendered.html : sourceCode(math.raw, rendered.html);
    },
  };
}

/** A formula found at the start of a text: its TeX, whether it is display math, and where its closer ends. */
interface Found {
  tex: string;
  display: boolean;
  end: number;
}

/** `$…$` or `$$…$$` at the start of `src`, by the dollar rule (see mathExtension). */
function dollars(src: string): Found | undefined {
  const display = src.startsWith('$$');
  const from = display ? 2 : 1;
  const limit = Math.min(src.length, from + MAX_FORMULA_CHARS);
  if (from >= src.length || /\s|\$/.test(src[from])) {
    return undefined;
  }
  for (let i = from; i < limit; i++) {
    const c = src[i];
    if (c === '\\') {
      i++;
    } else if (c === '$') {
      if (display) {
        return src[i + 1] === '$' ? { tex: src.slice(from, i).trim(), display, end: i + 2 } : undefined;
      }
      const closes = !/\s/.test(src[i - 1]) && !/\d/.test(src[i + 1] ?? '');
      return closes ? { tex: src.slice(from, i), display, end: i + 1 } : undefined;
    }
  }
  return undefined;
}

/** `\(…\)` at the start of `src`, holding more than white space (the first `\)` closes it). */
function parenthesised(src: string, tokens: object): Found | undefined {
  const i = parenCloser(src, tokens, MAX_FORMULA_CHARS);
  const tex = i < 0 ? '' : src.slice(2, i).trim();
  return tex ? { tex, display: false, end: i + 2 } : undefined;
}

/**
 * Masks the inside of `$…$` formulas in the text emphasis is matched in, so that `*$a*b$*` is an emphasised formula
 * and not an emphasis ending inside one (marked masks code spans and links the same way).
 */
function maskFormulas(masked: string): string {
  let out = '';
  let done = 0;
  for (let at = masked.indexOf('$'); at >= 0; at = masked.indexOf('$', at + 1)) {
    const found = dollars(masked.slice(at));
    if (found) {
      out += masked.slice(done, at + 1) + 'a'.repeat(found.end - 2);
      done = at + found.end - 1;
      at = done;
    }
  }
  return done ? out + masked.slice(done) : masked;
}

/** A formula rendered (`html` is MathML), or why not (`html` is the reason, as text). */
type Rendered = { ok: true; html: string } | { ok: false; html: string };

/**
 * Formulas rendered lately, by display mode and TeX: the live block is drawn again each frame while it streams, and
 * a long paragraph of formulas would otherwise cost each frame all of them again. At most 512 formulas and 8 million
 * characters of TeX and MathML (16 MB as UTF-16): 512 formulas near the MathML bound (mathMarkup.ts) would be 100 MB.
 */
const rendered = new FormulaCache<Rendered>(512, 8_000_000);

/**
 * The most formulas, and characters of their MathML, one drawing shows as MathML (a drawing: one renderBlocks call,
 * which is a frame's finished blocks, the live block, or a reply loaded whole). `text` then 16,000 lines of `$$x`
 * pairs into 8,000 inline formulas whose layout alone took tasks of 0.7–0.9 s, in code-server on the thread the
 * whole workbench shares. Past either bound the rest of the drawing shows its formulas as TeX (and Temml is not run).
 */
export const MAX_FORMULAS_PER_DRAWING = 200;
export const MAX_MATHML_PER_DRAWING = 400_000;

/** What the current drawing has shown as MathML so far. */
let drawn = { formulas: 0, chars: 0 };

/** Starts a drawing: its formulas count against MAX_FORMULAS_PER_DRAWING and MAX_MATHML_PER_DRAWING afresh. */
export function startDrawing(): void {
  drawn = { formulas: 0, chars: 0 };
}

/** A formula of the current drawing: rendered while the drawing's bounds allow, else why not. */
function drawnFormula(tex: string, display: boolean): Rendered {
  if (drawn.formulas >= MAX_FORMULAS_PER_DRAWING || drawn.chars >= MAX_MATHML_PER_DRAWING) {
    const reason = l10n.t(
      'Over {0} formulas or {1} characters of MathML in one drawing: shown as TeX',
      MAX_FORMULAS_PER_DRAWING,
      MAX_MATHML_PER_DRAWING,
    );
    return { ok: false, html: reason };
  }
  // A formula that fails counts too: failing can cost Temml as much as succeeding (up to mathMarkup's bounds).
  const rendered = renderFormula(tex, display);
  drawn.formulas++;
  drawn.chars += rendered.ok ? rendered.html.length : 0;
  return rendered;
}

/** Renders TeX as MathML (see mathMarkup.ts), or says why it could not. */
export function renderFormula(tex: string, display: boolean): Rendered {
  const key = (display ? 'D' : 'I') + tex;
  let result = rendered.get(key);
  if (!result) {
    result = renderAnew(tex, display);
    rendered.set(key, result);
  }
  return result;
}

function renderAnew(tex: string, display: boolean): Rendered {
  if (tex.length > MAX_FORMULA_CHARS) {
    return { ok: false, html: l10n.t('Formula longer than {0} characters', MAX_FORMULA_CHARS) };
  }
  try {
    return { ok: true, html: mathMarkup(temml, tex, display) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, html: l10n.t('Formula not rendered: {0}', reason.replace(/\s+/g, ' ').trim()) };
  }
}

/** A formula's source as code, with why it was not rendered as its tooltip. */
function sourceCode(source: string, reason: string): string {
  return `<code class="math-source" title="${escapeText(reason)}">${escapeText(source)}</code>`;
}

function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
