import type { LookupValue } from '../../core/encyclopedia/lookupTypes';
import type { EntryView } from '../../protocol/encyclopediaProtocol';
import { modelLabel } from './encyclopediaConfig';

/** The view model of a looked-up value (plain data, posted to the webview). */
export function entryView(value: LookupValue): EntryView {
  switch (value.kind) {
    case 'answer': {
      const { query, model, text, citations, unrecognised } = value.answer;
      return {
        kind: 'answer',
        query,
        model,
        modelLabel: modelLabel(model),
        text,
        citations: links(citations),
        unrecognised,
      };
    }
    case 'article': {
      const a = value.article;
      return {
        kind: 'article',
        title: a.title,
        summary: a.summary,
        content: a.content,
        url: a.url,
        facts: a.facts.map((f) => ({ name: f.name, value: f.value })),
        media: [...a.media],
        citations: links(a.citations),
        unrecognised: a.unrecognised,
      };
    }
    case 'search':
      return {
        kind: 'search',
        query: value.query,
        results: value.results.map((r) => ({ title: r.title, snippet: r.snippet, url: r.url })),
      };
  }
}

/** Citations as the page shows them: a title and a web address (nothing else travels to the page). */
function links(citations: readonly { title: string; url?: string }[]): { title: string; url?: string }[] {
  return citations.map((c) => ({ title: c.title, url: c.url }));
}
