import * as l10n from '@vscode/l10n';
import { h, textButton } from '../../shared/dom';
import './editBox.css';

/** What an edit box does: its label, its text, and its two ends. */
export interface EditBoxOptions {
  label: string;
  value: string;
  /** The button that keeps the text (Enter does the same). */
  submit: { label: string; icon: string; run(text: string): void };
  /** Cancel, and Escape (which then goes no further: it does not also stop a streaming reply). */
  cancel(): void;
}

/** A text box in place of a message (a prompt to edit and resend, a queued prompt), with its two buttons. */
export function editBox(options: EditBoxOptions): { box: HTMLElement; input: HTMLTextAreaElement } {
  const input = h('textarea', { class: 'input edit-box', 'aria-label': options.label, rows: 3 });
  input.value = options.value;
  const submit = () => options.submit.run(input.value);
  const box = h(
    'div',
    { class: 'edit' },
    input,
    h(
      'div',
      { class: 'actions' },
      textButton(options.submit.label, options.submit.icon, submit),
      h(
        'button',
        { type: 'button', class: 'text-button secondary', onClick: options.cancel },
        h('span', {}, l10n.t('Cancel')),
      ),
    ),
  );
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      submit();
    } else if (e.key === 'Escape') {
      e.stopPropagation();
      options.cancel();
    }
  });
  return { box, input };
}
