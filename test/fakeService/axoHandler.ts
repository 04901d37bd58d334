import { findArticle, rankArticles, snippetOf } from './axoSearch';
import { hostileAnswer, hostileArticle, hostileSearch } from './axoHostile';
import { stripFaultDirective } from './chatContent';
import type { RequestContext } from './context';
import type { CorpusArticle } from './corpus';

/** Encyclopedia model identifiers `/v1/axo/ask` accepts. */
export const AXO_MODELS: readonly string[] = ['axo', 'axo.1', 'axo.2'];

/** How many sources an answer cites at most. */
const MAX_SOURCES = 3;

/** How many search results are returned at most. */
const MAX_RESULTS = 10;

function param(ctx: RequestContext, name: string): string {
  return stripFaultDirective(ctx.url.searchParams.get(name) ?? '');
}

function pick(ctx: RequestContext, names: readonly string[]): string | undefined {
  return ctx.shapes.find((s) => names.includes(s));
}

/** Answers `GET /v1/axo/ask?q=&model=` (key and method already checked). */
export async function handleAsk(ctx: RequestContext): Promise<void> {
  const q = param(ctx, 'q');
  if (q === '') {
    ctx.sendError(400, "Missing query parameter 'q'", 'invalid_request');
    return;
  }
  const model = ctx.url.searchParams.get('model') ?? 'axo';
  if (!AXO_MODELS.includes(model)) {
    ctx.sendError(404, `Model '${model}' not found`, 'model_not_found');
    return;
  }
  if (pick(ctx, ['hostile'])) {
    await ctx.sendBody('application/json', JSON.stringify(hostileAnswer(model)));
    return;
  }
  const matches = rankArticles(q).slice(0, MAX_SOURCES);
  const answer = matches.length === 0 ? '' : answerText(matches[0], model);
  const siteNames = ctx.shapes.includes('site-titles');
  const refs = matches.map((a, i) => ({ title: siteNames ? siteTitle(a.title, i) : a.title, url: a.url }));
  let value: unknown;
  switch (pick(ctx, ['text', 'content', 'summary'])) {
    case 'text':
      value = { text: answer, citations: refs.map((r) => r.url) };
      break;
    case 'content':
      value = { content: answer, references: refs };
      break;
    case 'summary':
      value = { summary: answer };
      break;
    default:
      value = { answer, model, sources: refs };
  }
  await ctx.sendBody('application/json', JSON.stringify(value));
}

/**
 * A source's title as web pages title themselves (the `site-titles` shape): with the site's name after or before it,
 * a different separator for each source ("Alan Turing - AXO Encyclopedia", "AXO Encyclopedia: …", "… | AXO").
 */
function siteTitle(title: string, index: number): string {
  const forms = [`${title} - AXO Encyclopedia`, `AXO Encyclopedia: ${title}`, `${title} | AXO`];
  return forms[index % forms.length];
}

function answerText(article: CorpusArticle, model: string): string {
  if (model === 'axo.1') {
    return article.summary;
  }
  const [name, fact] = article.facts[0];
  return `${article.summary} ${name}: ${fact}.`;
}

/** Answers `GET /v1/axo/search?q=` (key and method already checked). */
export async function handleSearch(ctx: RequestContext): Promise<void> {
  const q = param(ctx, 'q');
  if (q === '') {
    ctx.sendError(400, "Missing query parameter 'q'", 'invalid_request');
    return;
  }
  if (pick(ctx, ['hostile'])) {
    await ctx.sendBody('application/json', JSON.stringify(hostileSearch()));
    return;
  }
  const results = rankArticles(q)
    .slice(0, MAX_RESULTS)
    .map((a) => ({ title: a.title, snippet: snippetOf(a), url: a.url }));
  const shape = pick(ctx, ['array', 'items', 'hits']);
  const value = shape === 'array' ? results : { [shape ?? 'results']: results };
  await ctx.sendBody('application/json', JSON.stringify(value));
}

/** Answers `GET /v1/axo/article?title=&facts=1` (key and method already checked). */
export async function handleArticle(ctx: RequestContext): Promise<void> {
  const title = param(ctx, 'title');
  if (title === '') {
    ctx.sendError(400, "Missing query parameter 'title'", 'invalid_request');
    return;
  }
  if (pick(ctx, ['hostile'])) {
    await ctx.sendBody('application/json', JSON.stringify(hostileArticle(title)));
    return;
  }
  const article = findArticle(title);
  if (!article) {
    ctx.sendError(404, `No article titled "${title}"`, 'article_not_found');
    return;
  }
  const textKey = pick(ctx, ['extract']) ?? 'content';
  const value: Record<string, unknown> = {
    title: article.title,
    summary: article.summary,
    [textKey]: article.content,
    url: article.url,
    media: article.media,
  };
  if (pick(ctx, ['long'])) {
    delete value[textKey];
    value.sections = longSections(article);
  }
  if (ctx.url.searchParams.get('facts') === '1') {
    value.facts = factsValue(article, pick(ctx, ['facts-array', 'facts-label', 'facts-key']));
  }
  await ctx.sendBody('application/json', JSON.stringify(value));
}

/** How many sections the `long` shape gives an article, and about how many characters each holds. */
export const LONG_SECTIONS = 24;
const LONG_SECTION_CHARS = 900;

/**
 * The `long` shape: the article as `sections: [{title, content}]` (the parts form of an article), 24 sections of
 * about 900 characters ("Part 1" … "Part 24", each its summary repeated), so it is longer than a tool result holds.
 */
function longSections(article: CorpusArticle): { title: string; content: string }[] {
  const paragraph = `${article.summary} `.repeat(Math.ceil(LONG_SECTION_CHARS / (article.summary.length + 1)));
  return Array.from({ length: LONG_SECTIONS }, (_, i) => ({
    title: `Part ${i + 1}`,
    content: `Part ${i + 1} of ${article.title}. ${paragraph.trim()}`,
  }));
}

function factsValue(article: CorpusArticle, shape: string | undefined): unknown {
  if (shape === undefined) {
    return Object.fromEntries(article.facts);
  }
  const nameKey = shape === 'facts-label' ? 'label' : shape === 'facts-key' ? 'key' : 'name';
  return article.facts.map(([name, value]) => ({ [nameKey]: name, value }));
}
