import type { LookupValue } from '../../core/encyclopedia/lookupTypes';
import type { EntryView } from '../../protocol/encyclopediaProtocol';
import { modelLabel } from './encyclopediaConfig';

/** The view model of a looked-up value (plain data, posted to the webview). */
export function entryView(value: LookupValue): EntryView {
  switch (value.kind) {
    case 'answer': {
      const a = value.answer;
      return {
        kind: 'answer',
        query: a.query,
        model: a.model,
        modelLabel: modelLabel(a.model),
        text: a.text,
        citations: a.citations.map((c) => ({ title: c.title, url: c.url })),
        unrecognised: a.unrecognised,
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
        citations: a.citations.map((c) => ({ title: c.title, url: c.url })),
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
