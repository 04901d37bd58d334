import * as vscode from 'vscode';
import { cleanText } from '../../core/encyclopedia/lookupTypes';
import type { SearchResult } from '../../core/service/normalize';
import { encyclopediaModels, saveEncyclopediaModel, type ModelOption } from './encyclopediaConfig';

const MAX_PREFILL = 200;

/** The selection when it is one short line, else the word at the cursor, else nothing. */
export function prefillText(editor = vscode.window.activeTextEditor): string {
  if (!editor) {
    return '';
  }
  const selection = editor.selection;
  if (!selection.isEmpty) {
    const text = cleanText(editor.document.getText(selection));
    if (text.length <= MAX_PREFILL) {
      return text;
    }
  }
  const word = editor.document.getWordRangeAtPosition(selection.active);
  return word ? cleanText(editor.document.getText(word)) : '';
}

/** An input box for search terms or an article title, prefilled and selected. */
export async function promptText(title: string, placeHolder: string, prompt: string): Promise<string | undefined> {
  const value = prefillText();
  const text = await vscode.window.showInputBox({
    title,
    placeHolder,
    prompt,
    value,
    valueSelection: [0, value.length],
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Type something to look up.')),
  });
  return text?.trim() ? cleanText(text) : undefined;
}

type AskStep = { kind: 'accept'; value: string } | { kind: 'changeModel'; value: string } | undefined;

/** One showing of the Ask box: resolves on Enter, on the model button, or undefined when dismissed. */
function askOnce(value: string, model: ModelOption): Promise<AskStep> {
  const input = vscode.window.createInputBox();
  input.title = vscode.l10n.t('AXO: Ask the Encyclopedia ({0})', model.label);
  input.placeholder = vscode.l10n.t('Ask a factual question, e.g. Who was Alan Turing?');
  const about = model.description ? `${model.label} — ${model.description}` : model.label;
  input.prompt = vscode.l10n.t('Model: {0}. Use the button above to change it.', about);
  input.value = value;
  input.valueSelection = [0, value.length];
  input.ignoreFocusOut = true;
  input.buttons = [
    { iconPath: new vscode.ThemeIcon('library'), tooltip: vscode.l10n.t('Change Model (now {0})', model.label) },
  ];
  return new Promise<AskStep>((resolve) => {
    let done = false;
    const finish = (step: AskStep) => {
      if (!done) {
        done = true;
        resolve(step);
        input.dispose();
      }
    };
    input.onDidChangeValue(() => (input.validationMessage = undefined));
    input.onDidAccept(() => {
      if (!input.value.trim()) {
        input.validationMessage = vscode.l10n.t('Type a question first.');
        return;
      }
      finish({ kind: 'accept', value: cleanText(input.value) });
    });
    input.onDidTriggerButton(() => finish({ kind: 'changeModel', value: input.value }));
    input.onDidHide(() => finish(undefined));
    input.show();
  });
}

/** A quick pick of the encyclopedia models, the current one first; saves the choice in the user settings. */
export async function pickModel(current: string): Promise<string | undefined> {
  const models = encyclopediaModels(current);
  const items = models.map((m) => ({
    label: m.label,
    description: m.id === current ? vscode.l10n.t('{0} · current', m.id) : m.id,
    detail: m.description,
    id: m.id,
  }));
  items.sort((a, b) => Number(b.id === current) - Number(a.id === current));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('AXO: Choose the Encyclopedia Model'),
    placeHolder: vscode.l10n.t('Which model answers your questions?'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (picked && picked.id !== current) {
    await saveEncyclopediaModel(picked.id);
  }
  return picked?.id;
}

/** The Ask box: a question, with a button to change the model. Undefined when dismissed. */
export async function promptAsk(model: string): Promise<{ query: string; model: string } | undefined> {
  let value = prefillText();
  let current = model;
  for (;;) {
    const option = encyclopediaModels(current).find((m) => m.id === current) ?? { id: current, label: current };
    const step = await askOnce(value, option);
    if (!step) {
      return undefined;
    }
    if (step.kind === 'accept') {
      return { query: step.value, model: current };
    }
    value = step.value;
    current = (await pickModel(current)) ?? current;
  }
}

/** The quick pick of search results, labelled with the titles exactly; filterable on title and snippet. */
export async function pickSearchResult(query: string, results: SearchResult[]): Promise<string | undefined> {
  const items = results.map((r) => ({ label: r.title, detail: r.snippet ? cleanText(r.snippet) : undefined }));
  const picked = await vscode.window.showQuickPick(items, {
    title:
      results.length === 1
        ? vscode.l10n.t('AXO: 1 result for “{0}”', query)
        : vscode.l10n.t('AXO: {0} results for “{1}”', results.length, query),
    placeHolder: vscode.l10n.t('Pick an article to open, or type to filter'),
    matchOnDetail: true,
  });
  return picked?.label;
}
