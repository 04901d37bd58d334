import * as vscode from 'vscode';
import type { Services } from '../../host/services';
import type { ChatEntry } from '../../host/chatEntry';
import { AssistCommands, type CommandTarget } from './assistCommands';
import { FixCodeActionProvider } from './fixCodeActionProvider';
import { PROPOSAL_SCHEME, ProposalContentProvider } from './proposalContentProvider';
import { ProposalReview } from './proposalReview';

/**
 * Code assistance: `alpha.explain`, `alpha.document`, `alpha.refactor`, `alpha.generateTests`, `alpha.fix`, the
 * read-only proposal documents behind the diff review, and the "Fix with ALPHA" quick fix. Answers for the chat
 * go through `chat`, the chat's internal entry; proposals open in `review` (registerProposalReview), which the chat's
 * edit tool shares.
 */
export function registerAssist(services: Services, chat: ChatEntry, review: ProposalReview): void {
  const commands = new AssistCommands(services, review, chat);
  const fileSchemes = ['file', 'untitled', 'vscode-remote', 'vscode-vfs'].map((scheme) => ({ scheme }));
  services.context.subscriptions.push(
    commands,
    vscode.commands.registerCommand('alpha.explain', (where?: unknown) => commands.explain(commandTarget(where))),
    vscode.commands.registerCommand('alpha.document', (where?: unknown) =>
      commands.propose('document', commandTarget(where)),
    ),
    vscode.commands.registerCommand('alpha.refactor', (where?: unknown) =>
      commands.propose('refactor', commandTarget(where)),
    ),
    vscode.commands.registerCommand('alpha.fix', (where?: unknown) => commands.propose('fix', commandTarget(where))),
    vscode.commands.registerCommand('alpha.generateTests', (where?: unknown) =>
      commands.generateTests(commandTarget(where)),
    ),
    vscode.languages.registerCodeActionsProvider(fileSchemes, new FixCodeActionProvider(), {
      providedCodeActionKinds: FixCodeActionProvider.kinds,
    }),
  );
}

/**
 * The reviewed diff every proposal opens in (the assistance commands' and the chat's edit tool's), with its Apply
 * and Discard commands: made before the chat, whose tools propose edits into it.
 */
export function registerProposalReview(services: Services): ProposalReview {
  const content = new ProposalContentProvider();
  const review = new ProposalReview(content);
  services.context.subscriptions.push(
    content,
    review,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, content),
    vscode.commands.registerCommand('alpha.proposal.apply', (uri?: unknown) => review.decide('apply', uri)),
    vscode.commands.registerCommand('alpha.proposal.discard', (uri?: unknown) => review.decide('discard', uri)),
  );
  return review;
}

/**
 * Reads the optional argument of a command: `{ uri, range }` (a code action, another extension) or a bare URI (the
 * editor context menu passes the clicked document's URI). Anything else means "the active editor".
 */
function commandTarget(arg: unknown): CommandTarget | undefined {
  if (arg instanceof vscode.Uri) {
    return vscode.window.activeTextEditor?.document.uri.toString() === arg.toString() ? undefined : { uri: arg };
  }
  if (typeof arg !== 'object' || arg === null) {
    return undefined;
  }
  const { uri, range } = arg as { uri?: unknown; range?: unknown };
  const parsed = uri instanceof vscode.Uri ? uri : typeof uri === 'string' ? vscode.Uri.parse(uri) : undefined;
  return parsed ? { uri: parsed, range: range instanceof vscode.Range ? range : undefined } : undefined;
}
