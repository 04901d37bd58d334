import type { KnownArticleUrls } from '../chat/request/citations';
import { hasCredentials, parseLink } from '../../shared/links';
import type { LookupValue } from './lookupTypes';

/** One article URL a lookup returned, with the article's title. */
interface ArticleLink {
  href: string;
  origin: string;
  title: string;
}

/**
 * The article URLs the encyclopedia returned, kept as its cache changes (`EncyclopediaStore` tells it): an article's
 * own `url` and each search result's. A grounded reply's sources are matched against them (`sourceTarget`): a source
 * at one of these URLs is that article, and one on their origins is an article too. An answer's citations are not
 * counted: they may be any web page. Work per cache change is proportional to the entry; a question is one lookup.
 */
export class ArticleUrls implements KnownArticleUrls {
  private readonly linksOf = new Map<string, ArticleLink[]>();
  private readonly byHref = new Map<string, { title: string; count: number }>();
  private readonly originCounts = new Map<string, number>();

  /** A cache entry was stored (again): its article URLs replace the ones it had. */
  add(key: string, value: LookupValue): void {
    this.remove(key);
    const links = articleLinks(value);
    if (!links.length) {
      return;
    }
    this.linksOf.set(key, links);
    for (const link of links) {
      const known = this.byHref.get(link.href);
      this.byHref.set(link.href, { title: link.title, count: (known?.count ?? 0) + 1 });
      this.originCounts.set(link.origin, (this.originCounts.get(link.origin) ?? 0) + 1);
    }
  }

  /** A cache entry went away. */
  remove(key: string): void {
    for (const link of this.linksOf.get(key) ?? []) {
      const known = this.byHref.get(link.href);
      if (known && known.count > 1) {
        known.count--;
      } else {
        this.byHref.delete(link.href);
      }
      const count = this.originCounts.get(link.origin) ?? 0;
      if (count > 1) {
        this.originCounts.set(link.origin, count - 1);
      } else {
        this.originCounts.delete(link.origin);
      }
    }
    this.linksOf.delete(key);
  }

  /** The cache was emptied. */
  clear(): void {
    this.linksOf.clear();
    this.byHref.clear();
    this.originCounts.clear();
  }

  origins(): Iterable<string> {
    return this.originCounts.keys();
  }

  titleAt(href: string): string | undefined {
    return this.byHref.get(href)?.title;
  }
}

/** The http(s) article URLs in a lookup's value, each with its article's title. */
function articleLinks(value: LookupValue): ArticleLink[] {
  const pairs =
    value.kind === 'article'
      ? [{ url: value.article.url, title: value.article.title }]
      : value.kind === 'search'
        ? value.results
        : [];
  const links: ArticleLink[] = [];
  for (const { url, title } of pairs) {
    const parsed = parseLink(url);
    const name = title.replace(/\s+/g, ' ').trim();
    if (parsed && name && !hasCredentials(parsed)) {
      links.push({ href: parsed.href, origin: parsed.origin, title: name });
    }
  }
  return links;
}
