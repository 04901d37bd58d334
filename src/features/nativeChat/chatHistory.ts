import * as l10n from '@vscode/l10n';
import type { ChatMessage } from '../../core/service/alphaClient';
import type { Citation } from '../../core/service/normalize';
import { citationList } from '../../core/encyclopedia/articleMarkdown';
import type { ChatRequestTurn, ChatResponseTurn } from './chatApi';

/**
 * The participant's earlier turns as service messages. VS Code passes only this participant's turns. A request turn
 * becomes the prompt that was actually sent (kept in its response's `metadata.sentPrompt`, so code from a `/fix`
 * stays in the conversation), else `/command prompt`; a response turn becomes its Markdown text. Failed or empty
 * turns are dropped. What fits the model's context is decided with the new prompt (`fitToContext`).
 */
export function historyMessages(history: readonly (ChatRequestTurn | ChatResponseTurn)[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (let i = 0; i < history.length; i++) {
    const turn = history[i];
    if (!isRequestTurn(turn)) {
      continue;
    }
    const next = history[i + 1];
    const response = next && !isRequestTurn(next) ? next : undefined;
    const answer = response ? answerText(response) : '';
    if (!answer.trim()) {
      continue;
    }
    const sent = response?.result.metadata?.sentPrompt;
    const asked = typeof sent === 'string' ? sent : turn.command ? `/${turn.command} ${turn.prompt}` : turn.prompt;
    messages.push({ role: 'user', content: asked }, { role: 'assistant', content: answer });
  }
  return messages;
}

/** What ALPHA answered in a response turn: its Markdown without the notice `@alpha` put before it. */
function answerText(turn: ChatResponseTurn): string {
  const text = responseText(turn);
  const notice = turn.result.metadata?.notice;
  const shown = typeof notice === 'string' ? noticeMarkdown(notice) : undefined;
  return shown && text.startsWith(shown) ? text.slice(shown.length) : text;
}

/** A notice (what was left out of a request) as `@alpha` shows it before the answer. */
export function noticeMarkdown(notice: string): string {
  return `*${notice}*\n\n`;
}

/**
 * A numbered "Sources" block after an answer, as `@axo` and `@alpha /ground` end theirs: every source, a link for
 * those with a web address and the title alone for the others (a reference takes only a URI, so this is where a
 * source without one is seen). Empty without sources.
 */
export function sourcesMarkdown(citations: readonly Citation[]): string {
  return citations.length ? `\n\n**${l10n.t('Sources')}**\n\n${citationList(citations).join('\n')}\n` : '';
}

/** The Markdown a response turn showed. */
export function responseText(turn: ChatResponseTurn): string {
  return turn.response
    .map((part) => {
      const value = (part as { value?: unknown }).value;
      if (typeof value === 'string') {
        return value;
      }
      const markdown = (value as { value?: unknown } | undefined)?.value;
      return typeof markdown === 'string' ? markdown : '';
    })
    .join('');
}

function isRequestTurn(turn: ChatRequestTurn | ChatResponseTurn): turn is ChatRequestTurn {
  return typeof (turn as ChatRequestTurn).prompt === 'string' && !('response' in turn);
}
