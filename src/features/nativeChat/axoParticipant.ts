import * as vscode from 'vscode';
import type { Services } from '../../host/services';
import { answerRequest } from './participantRun';
import type { ChatContext, ChatRequest, ChatResponseStream, ChatResult } from './chatApi';
import { sourcesMarkdown } from './chatHistory';
import { webUrl } from '../../shared/links';

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
    return await answerRequest(stream, token, async (signal) => {
      const model = this.services.settings.encyclopediaModel;
      stream.progress(vscode.l10n.t('Looking it up in AXO ({0})…', model));
      const answer = await this.services.axo.ask(question, model, signal);
      if (token.isCancellationRequested) {
        return {};
      }
      stream.markdown(answer.text);
      for (const citation of answer.citations) {
        const url = webUrl(citation.url);
        if (url) {
          stream.reference(vscode.Uri.parse(url, true));
        }
      }
      if (answer.citations.length > 0) {
        stream.markdown(sourcesMarkdown(answer.citations));
      }
      return { metadata: { model, citations: answer.citations.length } };
    });
  };
}
