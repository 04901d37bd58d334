import { CORPUS, type CorpusArticle } from './corpus';

const STOP_WORDS = new Set(
  (
    'a an and are about as at be by did do does for from how in is it me of on or tell the to was ' +
    'were what when where which who whom why with'
  ).split(' '),
);

function norm(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

function words(text: string): string[] {
  return norm(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Scores an article against a query: whole-title phrase matches first, then shared words (title > summary). */
function score(query: string, article: CorpusArticle): number {
  const q = norm(query).trim();
  const title = norm(article.title);
  let total = 0;
  if (q === title) {
    total += 1000;
  } else if (q.includes(title)) {
    total += 100;
  } else if (q.length >= 3 && title.includes(q)) {
    total += 50;
  }
  const titleWords = new Set(words(article.title));
  const summaryWords = new Set(words(article.summary));
  for (const w of new Set(words(query))) {
    if (STOP_WORDS.has(w)) {
      continue;
    }
    if (titleWords.has(w)) {
      total += 10;
    }
    if (summaryWords.has(w)) {
      total += 1;
    }
  }
  return total;
}

/** Articles matching a query, best first (ties keep corpus order); empty when nothing matches. */
export function rankArticles(query: string): CorpusArticle[] {
  return CORPUS.map((article, index) => ({ article, index, score: score(query, article) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((r) => r.article);
}

/** The article with exactly this title, else the one equal to it ignoring case and normalization. */
export function findArticle(title: string): CorpusArticle | undefined {
  return CORPUS.find((a) => a.title === title) ?? CORPUS.find((a) => norm(a.title) === norm(title.trim()));
}

/** A search snippet: the summary cut at a word boundary to at most `max` characters, with `…`. */
export function snippetOf(article: CorpusArticle, max = 120): string {
  if (article.summary.length <= max) {
    return article.summary;
  }
  const cut = article.summary.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > 0 ? cut.slice(0, space) : cut}…`;
}
