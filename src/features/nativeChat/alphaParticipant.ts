import * as vscode from 'vscode';
import { buildRequest, type BuiltRequest, type RequestParts } from '../../core/chat/request/requestBuilder';
import { groundQuestion } from '../../core/chat/request/grounding';
import type { Citation } from '../../core/service/normalize';
import { buildAssistPrompt, buildCodeQuestionPrompt, type AssistTask } from '../../core/assist/assistPrompts';
import { answerRequest } from './participantRun';
import type { Services } from '../../host/services';
import { resolveTarget, type AssistTarget } from '../../host/editorTarget';
import type { ChatContext, ChatRequest, ChatResponseStream, ChatResult } from './chatApi';
import { historyMessages, noticeMarkdown, sourcesMarkdown } from './chatHistory';
import { webUrl } from '../../shared/links';

/** The `@alpha` participant's id (as in package.json's `chatParticipants`). */
export const ALPHA_PARTICIPANT_ID = 'alpha-axo.alpha';

const TASKS: Record<string, AssistTask> = { explain: 'explain', fix: 'fix', doc: 'document', tests: 'tests' };

/**
 * `@alpha`: a conversation with ALPHA, streamed into the chat, with `/explain`, `/fix`, `/doc` and `/tests` on the
 * selection (or an attached `#selection`/`#file`). Earlier turns of this participant go along as history, with the
 * code each of them carried.
 */
export class AlphaParticipant {
  constructor(private readonly services: Services) {}

  /** The chat request handler. */
  readonly handle = (
    request: ChatRequest,
    context: ChatContext,
    stream: ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<ChatResult> =>
    answerRequest(stream, token, async (signal) => {
      const prompt = await this.promptFor(request, token);
      if (prompt === undefined) {
        stream.markdown(
          vscode.l10n.t(
            'Select code in an editor (or attach it with `#selection` or `#file`), then ask again, for example `@alpha /explain what could go wrong here?`',
          ),
        );
        return { metadata: { command: request.command } };
      }
      if (token.isCancellationRequested) {
        return {};
      }
      const model = this.services.settings.chatModel;
      // The same request as the chat view's: the repository's instructions first, the newest turns that fit the
      // model's context, in the one order of trims (requestBuilder.ts), saying what was left out.
      const parts: RequestParts = {
        model,
        earlier: historyMessages(context.history),
        prompt: { content: prompt },
        instructions: this.services.instructions.current,
      };
      const fit: BuiltRequest & { sources?: readonly Citation[] } =
        request.command === 'ground' ? await this.grounded(request.prompt, parts, stream, signal) : buildRequest(parts);
      if (fit.error) {
        throw fit.error;
      }
      if (fit.notice) {
        stream.markdown(noticeMarkdown(fit.notice));
      }
      stream.progress(vscode.l10n.t('Asking ALPHA…'));
      for await (const delta of this.services.alpha.stream({ model, messages: fit.messages }, signal)) {
        if (token.isCancellationRequested) {
          break;
        }
        stream.markdown(delta);
      }
      if (fit.sources?.length && !token.isCancellationRequested) {
        stream.markdown(sourcesMarkdown(fit.sources));
      }
      return { metadata: { command: request.command, sentPrompt: prompt, notice: fit.notice } };
    });

  /**
   * `/ground`: asks AXO (3 s, one attempt) and fits the request with its numbered sources, as the chat view's
   * "Ground with AXO" does; the sources with a web address become the response's references, and every source is
   * listed after the answer (`sources`, numbered as the answer cites them). A lookup that fails or finds nothing is
   * said in a note, and the reply goes ahead.
   */
  private async grounded(
    question: string,
    parts: RequestParts,
    stream: ChatResponseStream,
    signal: AbortSignal,
  ): Promise<BuiltRequest & { sources?: readonly Citation[] }> {
    stream.progress(vscode.l10n.t('Looking it up in AXO…'));
    const result = await groundQuestion(
      this.services.axo,
      this.services.encyclopedia,
      question,
      this.services.settings.encyclopediaModel,
      signal,
    );
    if (result.kind !== 'grounded') {
      if (result.kind === 'ungrounded') {
        stream.markdown(noticeMarkdown(result.note));
      }
      return buildRequest(parts);
    }
    if (result.note) {
      stream.markdown(noticeMarkdown(result.note));
    }
    for (const source of result.sources) {
      const url = webUrl(source.url);
      if (url) {
        stream.reference(vscode.Uri.parse(url, true));
      }
    }
    return { ...buildRequest({ ...parts, grounding: result }), sources: result.sources };
  }

  /** The message to send: the task prompt on the code for a slash command, else the user's words (with references). */
  private async promptFor(request: ChatRequest, token: vscode.CancellationToken): Promise<string | undefined> {
    const task = request.command ? TASKS[request.command] : undefined;
    const target = await this.codeTarget(request, task ?? 'explain', token);
    if (!task) {
      return target ? buildCodeQuestionPrompt(target.context, request.prompt) : request.prompt;
    }
    if (!target) {
      return task === 'explain' && request.prompt.trim() ? request.prompt : undefined;
    }
    return buildAssistPrompt(task, target.context, { instruction: request.prompt });
  }

  /**
   * The code a request is about: an attached location or file reference, else (slash commands only) the active
   * editor's selection or enclosing function.
   */
  private async codeTarget(
    request: ChatRequest,
    task: AssistTask,
    token: vscode.CancellationToken,
  ): Promise<AssistTarget | undefined> {
    for (const ref of request.references) {
      const value = ref.value;
      if (value instanceof vscode.Location) {
        const document = await vscode.workspace.openTextDocument(value.uri);
        return resolveTarget(document, task, value.range, token);
      }
      if (value instanceof vscode.Uri) {
        const document = await vscode.workspace.openTextDocument(value);
        const all = new vscode.Range(0, 0, document.lineCount - 1, document.lineAt(document.lineCount - 1).text.length);
        return resolveTarget(document, task, all, token);
      }
    }
    const editor = vscode.window.activeTextEditor;
    if (!request.command || !editor) {
      return undefined;
    }
    return resolveTarget(editor.document, task, editor.selection, token);
  }
}
