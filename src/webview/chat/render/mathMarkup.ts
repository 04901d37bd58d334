import * as l10n from '@vscode/l10n';
import type temmlApi from 'temml';

/**
 * The MathML elements Temml emits (its source's `MathNode` types); the page's sanitiser allows these and no other
 * MathML element (safeHtml.ts).
 */
export const MATHML_ELEMENTS: readonly string[] = [
  'math',
  'semantics',
  'annotation',
  'mrow',
  'mi',
  'mn',
  'mo',
  'mtext',
  'mspace',
  'mpadded',
  'mphantom',
  'mfrac',
  'msqrt',
  'mroot',
  'msub',
  'msup',
  'msubsup',
  'munder',
  'mover',
  'munderover',
  'mmultiscripts',
  'mprescripts',
  'none',
  'mtable',
  'mtr',
  'mtd',
  'mstyle',
  'menclose',
];

/**
 * The attributes Temml sets that the page keeps (with `alttext`, which `mathMarkup` adds, and `class`, which the
 * page's math rules in math.css use). Dropped: `style` (the page's CSP allows no inline style: what it carried is
 * turned into classes below, or left out), `id` (labels a formula could repeat), `href`, `xmlns`, and `mathcolor` /
 * `mathbackground` (a model's colours could make a formula unreadable in one of the themes).
 */
export const MATHML_ATTRIBUTES: readonly string[] = [
  'class',
  'alttext',
  'aria-label',
  'display',
  'encoding',
  'width',
  'height',
  'depth',
  'voffset',
  'lspace',
  'rspace',
  'stretchy',
  'fence',
  'form',
  'separator',
  'movablelimits',
  'largeop',
  'symmetric',
  'minsize',
  'maxsize',
  'mathsize',
  'mathvariant',
  'scriptlevel',
  'displaystyle',
  'notation',
  'linethickness',
  'columnalign',
  'rowspacing',
  'accent',
  'linebreak',
];

const KEPT = new Set(MATHML_ATTRIBUTES);

/** Temml's options for untrusted TeX: no `\href`, `\url`, `\includegraphics`; sizes and macro expansion bounded. */
const OPTIONS = {
  annotate: true,
  throwOnError: true,
  trust: false,
  strict: false,
  // At most 20em (relative sizes) and 240pt (absolute sizes): `\rule{1e9em}{…}` or `\hspace` cannot cover the page.
  maxSize: [20, 240] as [number, number],
  // Macro expansions per formula: a recursive `\def` stops with an error instead of hanging the page.
  maxExpand: 500,
} as const;

/**
 * The most MathML one formula may become, in characters. Formulas as models write them stay far below (the longest TeX
 * rendered, 4,000 characters of fractions or nested subscripts, makes 27,000–42,000), while user macros multiply: a
 * 154-character `\def` of a macro pasting its argument 40 times, applied twice, made 640 KB. Past it the formula is
 * shown as its TeX, with this as the reason.
 */
export const MAX_MATHML_CHARS = 100_000;

/**
 * The most tokens the macros a formula defines (`\def`, `\newcommand`, `\let`…) may produce, all their expansions
 * together. `maxExpand` counts expansions, not what they paste: a 314-character formula of a macro pasting its
 * argument 40 times, applied twice to 200 characters, made 3.2 MB of MathML in 11.6 s of Temml on the page's thread.
 * Past the bound Temml stops with an error, and the formula is shown as its TeX.
 */
export const MAX_MACRO_TOKENS = 20_000;

/** A macro a formula defined, as Temml keeps it (tokens in stack order, last first). */
interface Definition {
  tokens: { text: string }[];
  numArgs: number;
  delimiters?: string[][];
  unexpandable?: boolean;
}

/** The part of Temml's macro expander a counted macro uses. */
interface Gullet {
  consumeArgs(numArgs: number, delimiters?: string[][]): { text: string }[][];
}

/**
 * Temml's `macros` for one formula: each macro the formula defines is kept as a function that takes its arguments,
 * pastes them as Temml would, and counts what it produced against MAX_MACRO_TOKENS.
 */
function countedMacros(): Record<string, unknown> {
  let produced = 0;
  const counted =
    (definition: Definition) =>
    (gullet: Gullet): Definition => {
      const args = gullet.consumeArgs(definition.numArgs, definition.delimiters);
      const tokens = pasted(definition.tokens, args);
      produced += tokens.length;
      if (produced > MAX_MACRO_TOKENS) {
        throw new Error(l10n.t('Its macros expand to more than {0} tokens', MAX_MACRO_TOKENS));
      }
      return { tokens, numArgs: 0 };
    };
  return new Proxy(Object.create(null) as Record<string, unknown>, {
    set(target, name, value: unknown) {
      const definition = value as Definition | undefined;
      const expands = Array.isArray(definition?.tokens) && !definition?.unexpandable;
      target[name as string] = expands ? counted(definition as Definition) : value;
      return true;
    },
  });
}

/** A macro's tokens with `#n` replaced by its arguments and `##` by `#`, as Temml's expandOnce does. */
function pasted(body: { text: string }[], args: { text: string }[][]): { text: string }[] {
  const tokens = body.slice();
  for (let i = tokens.length - 1; i >= 0; --i) {
    if (tokens[i].text === '#') {
      if (i === 0) {
        throw new Error('Incomplete placeholder at end of macro body');
      }
      const next = tokens[--i].text;
      if (next === '#') {
        tokens.splice(i + 1, 1);
      } else if (/^[1-9]$/.test(next)) {
        tokens.splice(i, 2, ...(args[Number(next) - 1] ?? []));
      } else {
        throw new Error('Not a valid argument number');
      }
    }
  }
  return tokens;
}

/** The part of a Temml node this module reads and changes. */
interface Node {
  attributes?: Record<string, string>;
  classes?: string[];
  style?: Record<string, string>;
  children?: Node[];
  toMarkup(): string;
}

/**
 * Renders TeX as MathML markup that needs no inline style: Temml's tree, with each node's style turned into a class
 * math.css styles where it matters (a box, an equation tag's columns) and dropped where the browser's own MathML
 * layout reads as well (cell padding, colours, `display: block math`, which `display="block"` gives), and the TeX as
 * the formula's `alttext` (and, by Temml, its `annotation`). Throws on TeX that does not parse, and on MathML longer
 * than MAX_MATHML_CHARS.
 */
export function mathMarkup(temml: typeof temmlApi, tex: string, display: boolean): string {
  const tree = temml.__renderToMathMLTree(tex, { ...OPTIONS, displayMode: display, macros: countedMacros() }) as Node;
  clean(tree);
  tree.attributes = { ...tree.attributes, alttext: tex, 'aria-label': tex };
  const markup = tree.toMarkup();
  if (markup.length > MAX_MATHML_CHARS) {
    throw new Error(l10n.t('Its MathML is longer than {0} characters', MAX_MATHML_CHARS));
  }
  return markup;
}

function clean(node: Node): void {
  if (node.style) {
    const classes = classesFor(node.style);
    if (classes.length) {
      node.classes = [...(node.classes ?? []), ...classes];
    }
    node.style = {};
  }
  if (node.attributes) {
    for (const name of Object.keys(node.attributes)) {
      if (!KEPT.has(name)) {
        delete node.attributes[name];
      }
    }
  }
  node.children?.forEach(clean);
}

/** The classes standing for a node's inline style (see `.math-*` in math.css). */
function classesFor(style: Record<string, string>): string[] {
  if (style.border) {
    return ['math-boxed']; // \boxed, \fbox
  }
  if (style.width === '100%') {
    return ['math-tagged']; // a table holding an equation and its \tag
  }
  if (style.width === '50%') {
    return ['math-tag-side']; // the columns either side of a tagged equation
  }
  return [];
}
