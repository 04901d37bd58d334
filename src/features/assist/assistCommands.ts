import * as vscode from 'vscode';
import { buildAssistPrompt, buildChatHandoff, selectionLabel, type AssistTask } from '../../core/assist/assistPrompts';
import type { AssistReply } from '../../core/assist/assistReply';
import { pickCodeBlock, StreamingCodeBlock, streamingCodeBlock } from '../../core/assist/codeBlocks';
import { fitProposal } from '../../core/assist/proposalText';
import { describeError } from '../../core/service/errors';
import { DisposableOwner } from '../../host/disposables';
import { eolOf } from '../../host/documentEol';
import type { Services } from '../../host/services';
import type { ChatEntry } from '../../host/chatEntry';
import { resolveTarget, type AssistTarget } from '../../host/editorTarget';
import type { ProposalReview } from './proposalReview';
import { ReplyRequest } from './replyRequest';
import { UntitledCodeSink } from './untitledCodeSink';

/** The palette title of a task's command (without its category), for messages. */
export function commandTitle(task: AssistTask): string {
  switch (task) {
    case 'explain':
      return vscode.l10n.t('Explain Selection');
    case 'document':
      return vscode.l10n.t('Document Selection');
    case 'refactor':
      return vscode.l10n.t('Refactor Selection…');
    case 'tests':
      return vscode.l10n.t('Generate Tests');
    case 'fix':
      return vscode.l10n.t('Fix Problems');
  }
}

/** The progress title while ALPHA works on `where`. */
function progressText(task: AssistTask, where: string): string {
  switch (task) {
    case 'explain':
      return vscode.l10n.t('ALPHA is explaining {0}…', where);
    case 'document':
      return vscode.l10n.t('ALPHA is documenting {0}…', where);
    case 'refactor':
      return vscode.l10n.t('ALPHA is refactoring {0}…', where);
    case 'tests':
      return vscode.l10n.t('ALPHA is writing tests for {0}…', where);
    case 'fix':
      return vscode.l10n.t('ALPHA is fixing {0}…', where);
  }
}

const LAST_REFACTOR = 'alpha.assist.lastRefactorRequest';

/** Where a command works: a document and a range (from a code action or a caller), else the active editor. */
export interface CommandTarget {
  uri?: vscode.Uri;
  range?: vscode.Range;
}

/** The five assistance commands. Each works with no argument (the active editor and its selection). */
export class AssistCommands extends DisposableOwner {
  private readonly proposals: ReplyRequest;
  private readonly tests: ReplyRequest;

  constructor(
    private readonly services: Services,
    private readonly review: ProposalReview,
    private readonly chat: ChatEntry,
  ) {
    super();
    this.proposals = this._register(new ReplyRequest(services));
    this.tests = this._register(new ReplyRequest(services));
  }

  /** Explains the selection (or the enclosing function) in the chat view, streamed there. */
  async explain(where?: CommandTarget): Promise<void> {
    const target = await this.target('explain', where);
    if (target) {
      await this.askInChat('explain', target);
    }
  }

  /** Document, Refactor, Fix: asks for a proposal and opens it for review. */
  async propose(task: 'document' | 'refactor' | 'fix', where?: CommandTarget): Promise<void> {
    const instruction = task === 'refactor' ? await this.askRefactorRequest() : undefined;
    if (instruction === null) {
      return;
    }
    const target = await this.target(task, where);
    if (!target) {
      return;
    }
    const prompt = buildAssistPrompt(task, target.context, { instruction });
    const reply = await this.proposals.send(prompt, this.progressTitle(task, target), () => this.propose(task, where));
    if (reply === undefined) {
      return;
    }
    const code = pickCodeBlock(reply.text, target.document.languageId);
    if (code === undefined) {
      await this.askInChat(task, target, instruction, reply);
      return;
    }
    const eol = eolOf(target.document);
    const text = fitProposal(code, target.context.selection.text, eol);
    await this.review.review({ target, text, commandTitle: commandTitle(task), notice: reply.notice });
  }

  /** Writes tests for the selection into a new untitled editor of the file's language, as they stream in. */
  async generateTests(where?: CommandTarget): Promise<void> {
    const target = await this.target('tests', where);
    if (!target) {
      return;
    }
    const languageId = target.document.languageId;
    const sink = new UntitledCodeSink(languageId);
    // Each delta is read once, and only what it adds is written: work per delta stays proportional to the delta.
    const growing = new StreamingCodeBlock(languageId);
    const prompt = buildAssistPrompt('tests', target.context);
    const reply = await this.tests.send(
      prompt,
      this.progressTitle('tests', target),
      () => this.generateTests(where),
      (soFar) => {
        const step = growing.update(soFar);
        return step?.appended !== undefined ? sink.append(step.appended) : sink.write(step?.code ?? '');
      },
    );
    if (reply === undefined) {
      return;
    }
    const code = pickCodeBlock(reply.text, languageId) ?? streamingCodeBlock(reply.text, languageId)?.code;
    if (code === undefined || (!sink.opened && code.trim() === '')) {
      await this.askInChat('tests', target, undefined, reply);
      return;
    }
    await sink.write(code);
    if (reply.notice) {
      // An untitled editor has no place for a note beside the code: the trim is told once the tests are written.
      void vscode.window.showInformationMessage(
        vscode.l10n.t('ALPHA wrote tests for {0}. {1}', selectionLabel(target.context), reply.notice),
      );
    }
  }

  private async target(task: AssistTask, where?: CommandTarget): Promise<AssistTarget | undefined> {
    try {
      const editor = vscode.window.activeTextEditor;
      const document = where?.uri ? await vscode.workspace.openTextDocument(where.uri) : editor?.document;
      if (!document) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Open a file and select code to use "ALPHA: {0}".', commandTitle(task)),
        );
        return undefined;
      }
      const selection =
        where?.range ?? (editor && editor.document === document ? editor.selection : new vscode.Range(0, 0, 0, 0));
      const target = await resolveTarget(document, task, selection);
      if (target.context.selection.text.trim() === '') {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Select some code to use "ALPHA: {0}".', commandTitle(task)),
        );
        return undefined;
      }
      return target;
    } catch (error) {
      void vscode.window.showWarningMessage(describeError(error));
      return undefined;
    }
  }

  /** The refactoring request, remembered for next time; null when the user cancelled. */
  private async askRefactorRequest(): Promise<string | null> {
    const state = this.services.context.workspaceState;
    const answer = await vscode.window.showInputBox({
      title: vscode.l10n.t('ALPHA: Refactor Selection'),
      prompt: vscode.l10n.t('What should ALPHA change?'),
      placeHolder: vscode.l10n.t('For example: use async/await; extract the loop into a function; rename x to total'),
      value: state.get<string>(LAST_REFACTOR, ''),
      ignoreFocusOut: true,
      validateInput: (text) => (text.trim() ? undefined : vscode.l10n.t('Say what to change.')),
    });
    if (answer === undefined) {
      return null;
    }
    await state.update(LAST_REFACTOR, answer.trim());
    return answer.trim();
  }

  /**
   * Hands the task to the chat view through the chat's internal entry (never the public command, which takes no
   * reply): Explain is asked and streamed there; a reply already received without usable code is shown there as
   * the answer (no second request).
   */
  private async askInChat(
    task: AssistTask,
    target: AssistTarget,
    instruction?: string,
    reply?: AssistReply,
  ): Promise<void> {
    const handoff = buildChatHandoff(task, target.context, { instruction });
    try {
      await (reply === undefined ? this.chat.ask(handoff) : this.chat.record(handoff, reply));
      if (task !== 'explain') {
        void vscode.window.showInformationMessage(
          vscode.l10n.t(
            'ALPHA answered "{0}" without code for {1}; the answer is in the chat.',
            commandTitle(task),
            selectionLabel(target.context),
          ),
        );
      }
    } catch (error) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('The ALPHA chat could not be opened: {0}', describeError(error)),
      );
    }
  }

  private progressTitle(task: AssistTask, target: AssistTarget): string {
    return progressText(task, selectionLabel(target.context));
  }
}
