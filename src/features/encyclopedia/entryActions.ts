import * as vscode from 'vscode';
import { lookupMarkdown, lookupTitle } from '../../core/encyclopedia/articleMarkdown';
import type { LookupValue } from '../../core/encyclopedia/lookupTypes';
import { describeError } from '../../core/service/errors';
import { WEB_LINK_SCHEMES } from '../../core/service/links';
import { EditorActions } from '../../host/editorActions';
import type { HostToWebview } from '../../protocol/encyclopediaProtocol';

/** The actions on a shown entry: open as Markdown, insert a fact, ask ALPHA, open links, load images. */
export class EntryActions extends EditorActions {
  /** Opens the entry as a new, untitled Markdown document. */
  async openMarkdown(value: LookupValue): Promise<void> {
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: lookupMarkdown(value) });
    await vscode.window.showTextDocument(document, { preview: false });
  }

  /** Opens ALPHA chat with the entry as context (the chat feature's `alpha.chat.ask` takes it). */
  async askAlpha(value: LookupValue): Promise<void> {
    const context = { label: lookupTitle(value), content: lookupMarkdown(value) };
    try {
      await vscode.commands.executeCommand('alpha.chat.ask', { context });
    } catch (error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not open ALPHA chat: {0}', describeError(error)));
    }
  }

  /** Inserts a fact's value at the cursor(s) of the last active editor; with no index, asks which fact. */
  async insertFact(value: LookupValue, index?: number): Promise<void> {
    if (value.kind !== 'article' || !value.article.facts.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This entry has no facts to insert.'));
      return;
    }
    const facts = value.article.facts;
    let fact = index === undefined ? undefined : facts[index];
    if (!fact) {
      const picked = await vscode.window.showQuickPick(
        facts.map((f, i) => ({ label: f.name, description: f.value, i })),
        {
          title: vscode.l10n.t('AXO: Insert a Fact of “{0}”', value.article.title),
          placeHolder: vscode.l10n.t('Which fact? Its value is inserted at the cursor.'),
        },
      );
      fact = picked ? facts[picked.i] : undefined;
    }
    if (!fact) {
      return;
    }
    const text = fact.value;
    await this.editAtSelections((edit, selection) => edit.replace(selection, text), {
      noEditor: vscode.l10n.t('Open an editor first: the fact is inserted at its cursor.'),
      failed: vscode.l10n.t('The fact could not be inserted: the editor is read-only or changed.'),
    });
  }

  /** Opens an http(s) link in the browser; anything else (`command:`, `javascript:`, `file:`) is refused. */
  async openLink(url: string): Promise<void> {
    await this.openExternal(
      url,
      WEB_LINK_SCHEMES,
      vscode.l10n.t('Only http and https links from the encyclopedia are opened.'),
    );
  }

  /** Downloads an image the user asked to see and posts it to the view as a data: URI. */
  async loadImage(url: string, post: (message: HostToWebview) => void): Promise<void> {
    const image = await this.fetchImage(url);
    post(
      image.ok
        ? { type: 'media/loaded', url, dataUri: image.dataUri }
        : { type: 'media/failed', url, message: image.message },
    );
  }
}
