import { branchPointCount } from '../conversation/branches';
import { activeCompaction } from '../conversation/compaction';
import { contextBlock } from '../request/promptMessages';
import { displayTitle, type Conversation, type StoredMessage } from '../conversation/conversation';
import { modelLabel } from '../request/modelLineup';
import { linkCitationMarkers, sourceAnchor } from '../request/citations';
import { cleanTitle } from '../request/grounding';
import type { Citation } from '../../service/normalize';
import { webUrl } from '../../../shared/links';
import { speedEnglish } from '../../../shared/speed';
import { replySpeed } from '../runs/replyTiming';
import { replyMarkdown } from './markdownSteps';

const STATUS_NOTES: Partial<Record<NonNullable<StoredMessage['status']>, string>> = {
  stopped: '_(stopped)_',
  interrupted: '_(interrupted)_',
};

/**
 * The conversation as a Markdown document: a title, then each message under a heading naming who wrote it, with
 * its context, a reply's tool steps where they sit in it (markdownSteps.ts), its speed and usage lines, and any error
 * or notice. `formatTime` renders the timestamps (the host passes the user's locale).
 */
export function conversationMarkdown(
  conversation: Conversation,
  formatTime: (ms: number) => string = (ms) => new Date(ms).toISOString(),
): string {
  const parts: string[] = [`# ${displayTitle(conversation)}`, '', `_Exported ${formatTime(Date.now())}_`];
  const points = branchPointCount(conversation);
  if (points > 0) {
    // The export is what the conversation shows: the branch on screen, not its other versions.
    parts.push(
      '',
      `_The branch on screen; ${points === 1 ? 'one message has' : `${points} messages have`} other versions, not included._`,
    );
  }
  let grounded = 0;
  const compacted = activeCompaction(conversation)?.compaction;
  for (const m of conversation.messages) {
    const who = m.role === 'user' ? 'You' : m.model ? `ALPHA (${modelLabel(m.model)})` : 'ALPHA';
    parts.push('', `## ${who} · ${formatTime(m.createdAt)}`, '');
    for (const item of m.context ?? []) {
      parts.push(contextBlock(item), '');
    }
    const steps = m.role === 'assistant' ? m.steps : undefined;
    if (m.content || steps?.length) {
      const label = String(grounded + 1);
      const sources = m.sources?.length ?? 0;
      // A reply stopped inside a code block is closed, so the next heading is a heading (the import undoes it).
      parts.push(replyMarkdown(m.content, steps, (text) => (sources ? footnoteMarkers(text, sources, label) : text)));
    }
    if (m.sources?.length) {
      // Each grounded reply numbers its own sources: the label's first part keeps footnotes of replies apart.
      grounded++;
      parts.push('', ...m.sources.map((s, i) => sourceFootnote(s, i + 1, String(grounded))));
    }
    const speed = m.role === 'assistant' ? replySpeed(m.timing, m.usage) : undefined;
    if (speed) {
      parts.push('', `_${speedEnglish(speed)}_`);
    }
    const usage = m.role === 'assistant' ? usageEnglish(m) : undefined;
    if (usage) {
      parts.push('', `_${usage}_`);
    }
    const note = m.status ? STATUS_NOTES[m.status] : undefined;
    if (note) {
      parts.push('', note);
    }
    if (m.error) {
      parts.push('', `> **Error:** ${m.error.message}`);
    }
    if (m.notice && m.status !== 'interrupted') {
      parts.push('', `> ${m.notice}`);
    }
    if (compacted?.throughId === m.id) {
      // The originals stay above; what was sent instead of them from here on follows, quoted.
      const summary = compacted.summary.split('\n').map((line) => `> ${line}`.trimEnd());
      parts.push('', `_Compacted: from here on, the ${compacted.messages} messages above were sent as this summary:_`);
      parts.push('', ...summary);
    }
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

/**
 * A reply's tokens and billed requests in English, as the chat's footer says them: "≈ 1,234 tokens in, 56 out ·
 * 3 requests" ("≈" when estimated; the requests only when the reply's tool calls took more than one).
 */
export function usageEnglish(message: Pick<StoredMessage, 'usage' | 'requests'>): string | undefined {
  const { usage, requests } = message;
  const tokens = usage
    ? `${usage.reported ? '' : '≈ '}${usage.input.toLocaleString('en')} tokens in, ${usage.output.toLocaleString('en')} out`
    : undefined;
  const billed = requests && requests > 1 ? `${requests.toLocaleString('en')} requests` : undefined;
  return tokens && billed ? `${tokens} · ${billed}` : (tokens ?? billed);
}

/** A grounded reply's `[n]` markers as Markdown footnote references `[^n]` (outside code, as the chat links them). */
function footnoteMarkers(content: string, count: number, label: string): string {
  const linked = linkCitationMarkers(content, count);
  return linked.replace(/\[\\\[(\d+)\\\]\]\(([^)\s]+)\)/g, (match: string, n: string, href: string) =>
    href === sourceAnchor(Number(n)) ? `[^${label}-${n}]` : match,
  );
}

/** One source as a footnote definition: its title (one line, Markdown escaped) and its http(s) URL. */
function sourceFootnote(source: Citation, n: number, label: string): string {
  const title = cleanTitle(source.title).replace(/[\\`*_[\]<>]/g, '\\$&');
  const url = webUrl(source.url);
  return `[^${label}-${n}]: ${title || url || '?'}${url && url !== source.title ? ` <${url}>` : ''}`;
}

/**
 * A reply as "ALPHA: Open Reply as Text" shows it, as the chat shows it: the text that arrived and then, when it
 * ended in an error, the error's sentence, quoted so it is not read as the reply's own words. A reply that failed
 * before any text is the sentence alone.
 */
export function replyAsText(message: Pick<StoredMessage, 'content' | 'error'>): string {
  const sentence = message.error?.message.trim();
  if (!sentence) {
    return message.content;
  }
  const quoted = sentence
    .split(/\r?\n/)
    .map((line) => `> ${line}`.trimEnd())
    .join('\n');
  const text = message.content.trimEnd();
  return text ? `${text}\n\n${quoted}\n` : `${quoted}\n`;
}
