import * as vscode from 'vscode';
import { abortOnCancel } from '../../host/disposables';
import type { Services } from '../../host/services';
import { failure } from './alphaParticipant';
import type { ChatContext, ChatRequest, ChatResponseStream, ChatResult } from './chatApi';

/** The `@axo` participant's id (as in package.json's `chatParticipants`). */
export const AXO_PARTICIPANT_ID = 'alpha-axo.axo';

/**
 * `@axo`: answers encyclopedia questions with `GET /v1/axo/ask` (the `alphaAxo.encyclopedia.model`), the answer as
 * Markdown and its citations as references (links) and as a numbered "Sources" list with their titles.
 */
export class AxoParticipant {
  constructor(private readonly services: Services) {}

  /** The chat request handler. */
  readonly handle = async (
    request: ChatRequest,
    _context: ChatContext,
    stream: ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<ChatResult> => {
    const question = request.prompt.trim();
    if (!question) {
      stream.markdown(vscode.l10n.t('Ask AXO a question, for example `@axo Who was Alan Turing?`'));
      return {};
    }
    const controller = new AbortController();
    const link = abortOnCancel(token, controller);
    try {
      const model = this.services.settings.encyclopediaModel;
      stream.progress(vscode.l10n.t('Looking it up in AXO ({0})…', model));
      const answer = await this.services.axo.ask(question, model, controller.signal);
      if (token.isCancellationRequested) {
        return {};
      }
      stream.markdown(answer.text);
      const sources = answer.citations.map((c, i) => `${i + 1}. ${sourceLine(c.title, c.url)}`);
      for (const citation of answer.citations) {
        const url = safeUrl(citation.url);
        if (url) {
          stream.reference(url);
        }
      }
      if (sources.length > 0) {
        stream.markdown(`\n\n**${vscode.l10n.t('Sources')}**\n\n${sources.join('\n')}\n`);
      }
      return { metadata: { model, citations: answer.citations.length } };
    } catch (error) {
      return failure(error, stream, token);
    } finally {
      link.dispose();
    }
  };
}

/** A citation as a Markdown list item: a link for http(s) URLs, else the title as text (escaped either way). */
export function sourceLine(title: string, url: string | undefined): string {
  const text = escapeMarkdown(title.trim() || url || 'Source');
  return safeUrl(url) ? `[${text}](<${url?.replace(/[<>\s]/g, encodeURIComponent)}>)` : text;
}

function safeUrl(url: string | undefined): vscode.Uri | undefined {
  if (!url || !/^https?:\/\//i.test(url)) {
    return undefined;
  }
  try {
    return vscode.Uri.parse(url, true);
  } catch {
    return undefined;
  }
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+\-!|~]/g, '\\$&');
}
