import type { LookupValue } from '../../encyclopedia/lookupTypes';
import { AXO_TOOL_SPECS, inputSchema, type AxoToolSpec } from '../../mcp/axoToolSpecs';
import type { Citation } from '../../service/normalize';
import type { ToolSpec } from '../../toolCalls/toolSpec';
import { webUrl } from '../../../shared/links';

/** Most sources one AXO step adds to the reply's Sources. */
const MAX_SOURCES = 10;
/** Longest source title kept. */
const TITLE_CHARS = 200;
/** Longest section name `axo_article` takes. */
export const MAX_SECTION_CHARS = 200;

/**
 * An AXO tool as our chat describes it to ALPHA: the same description and input as VS Code's tools and the MCP
 * servers (one spec), and for `axo_article` an optional `section`, to read one section of a long article.
 */
export function axoChatSpec(spec: AxoToolSpec): ToolSpec {
  const schema = inputSchema(spec);
  if (spec.name !== 'axo_article') {
    return { name: spec.name, description: spec.modelDescription, inputSchema: schema };
  }
  const properties = {
    ...(schema.properties as Record<string, unknown>),
    section: {
      type: 'string',
      maxLength: MAX_SECTION_CHARS,
      description: "Optional: the heading of one section to read, as a long article's outline names it.",
    },
  };
  return { name: spec.name, description: spec.modelDescription, inputSchema: { ...schema, properties } };
}

/** The three AXO tools' specs for our chat, in their order. */
export function axoChatSpecs(): ToolSpec[] {
  return AXO_TOOL_SPECS.map(axoChatSpec);
}

/**
 * The sources a lookup gives the reply, as grounding's do: an answer's citations, an article itself (its title and
 * URL) and its citations. A search's hits are candidates, not sources: none. Deduplicated by URL (else title),
 * http(s) links only, bounded.
 */
export function lookupSources(value: LookupValue): Citation[] {
  const all: Citation[] =
    value.kind === 'answer'
      ? value.answer.citations
      : value.kind === 'article'
        ? [{ title: value.article.title, url: value.article.url }, ...value.article.citations]
        : [];
  const seen = new Set<string>();
  const out: Citation[] = [];
  for (const source of all) {
    const title = source.title.replace(/\s+/g, ' ').trim().slice(0, TITLE_CHARS);
    const url = webUrl(source.url);
    const key = url ?? title.toLowerCase();
    if ((title || url) && !seen.has(key) && out.length < MAX_SOURCES) {
      seen.add(key);
      out.push(url ? { title: title || url, url } : { title });
    }
  }
  return out;
}
