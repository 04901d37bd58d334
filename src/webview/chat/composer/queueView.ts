import * as l10n from '@vscode/l10n';
import { editBox } from './editBox';
import type { QueuedPromptView, QueueView, WebviewToHost } from '../../../protocol/chatProtocol';
import { h, iconButton, textButton } from '../../shared/dom';
import './queue.css';

/**
 * The prompts waiting their turn, listed under the conversation in the order they go: each with what it was queued
 * with (attachments, model, grounding) and its buttons: Edit, Remove, "Send now". When the queue waits (after a
 * Stop, a failed reply or a reload) a "Resume queue" button runs it: nothing is sent unasked. Prompts another window
 * queued are shown only: that window runs them. Every action is a button, so the keyboard reaches all of them.
 */
export class QueueList {
  readonly element = h('section', { class: 'prompt-queue', 'aria-label': l10n.t('Queued prompts'), hidden: true });
  private readonly list = h('ol', { class: 'queue-items' });
  private readonly status = h('p', { class: 'queue-status' });
  private readonly resumeButton: HTMLButtonElement;
  /** The prompt being edited: a redraw keeps its box and what was typed in it. */
  private editing: { id: string; box: HTMLElement } | undefined;

  constructor(
    private readonly post: (message: WebviewToHost) => void,
    /** Where the focus goes when the prompt it was on is gone and nothing is left to focus here. */
    private readonly focusElsewhere: () => void,
  ) {
    this.resumeButton = textButton(
      l10n.t('Resume queue'),
      'debug-continue',
      () => this.post({ type: 'queue/resume' }),
      {
        class: 'text-button queue-resume',
      },
    );
    this.element.append(
      h('div', { class: 'queue-header' }, h('h2', {}, l10n.t('Queued')), this.status, this.resumeButton),
      this.list,
    );
  }

  /** Draws the queue as the host sent it. */
  update(queue: QueueView | undefined): void {
    const prompts = queue?.prompts ?? [];
    const hadFocus = this.element.contains(document.activeElement);
    const focusedId = (document.activeElement?.closest('[data-queue-id]') as HTMLElement | null)?.dataset.queueId;
    this.element.hidden = prompts.length === 0;
    this.resumeButton.hidden = !queue?.waiting;
    this.status.textContent = queue?.waiting
      ? l10n.t('Waiting: nothing is sent until you resume.')
      : l10n.t('Sent one after another when the reply ends.');
    if (this.editing && !prompts.some((p) => p.id === this.editing?.id)) {
      this.editing = undefined;
    }
    this.list.replaceChildren(...prompts.map((p, i) => this.item(p, i + 1)));
    if (hadFocus) {
      this.restoreFocus(focusedId);
    }
  }

  private item(prompt: QueuedPromptView, position: number): HTMLElement {
    const li = h('li', { class: 'queue-item', 'data-queue-id': prompt.id });
    if (this.editing?.id === prompt.id) {
      li.append(this.editing.box);
      return li;
    }
    const facts = [
      prompt.model,
      prompt.grounded ? l10n.t('grounded with AXO') : undefined,
      prompt.attachments.length ? l10n.t('with {0}', prompt.attachments.join(', ')) : undefined,
      prompt.mine ? undefined : l10n.t('queued in another window'),
    ].filter((f): f is string => f !== undefined);
    li.append(
      h('span', { class: 'queue-position', 'aria-hidden': 'true' }, String(position)),
      h(
        'div',
        { class: 'queue-body' },
        h('p', { class: 'queue-text' }, prompt.text),
        h('p', { class: 'queue-facts' }, facts.join(' · ')),
      ),
    );
    if (prompt.mine) {
      const name = prompt.text.trim().slice(0, 40) || l10n.t('queued prompt {0}', position);
      li.append(
        h(
          'div',
          { class: 'queue-actions' },
          iconButton(l10n.t('Edit queued prompt “{0}”', name), 'edit', () => this.edit(prompt)),
          iconButton(l10n.t('Remove queued prompt “{0}”', name), 'close', () =>
            this.post({ type: 'queue/remove', id: prompt.id }),
          ),
          textButton(l10n.t('Send now'), 'send', () => this.post({ type: 'queue/sendNow', id: prompt.id }), {
            'aria-label': l10n.t('Send now: “{0}”', name),
          }),
        ),
      );
    }
    return li;
  }

  /** Edits a queued prompt in place: Enter (or Save) keeps the new text, Escape (or Cancel) leaves it as it was. */
  private edit(prompt: QueuedPromptView): void {
    const close = () => {
      this.editing = undefined;
      const li = box.closest('li');
      li?.replaceWith(this.item(prompt, Array.from(this.list.children).indexOf(li) + 1));
      this.restoreFocus(prompt.id);
    };
    const save = (text: string) => {
      this.post({ type: 'queue/edit', id: prompt.id, text });
      prompt.text = text;
      close();
    };
    // Escape closes the box; it does not stop the reply streaming (the page's Escape).
    const { box, input } = editBox({
      label: l10n.t('Edit queued prompt'),
      value: prompt.text,
      submit: { label: l10n.t('Save'), icon: 'check', run: save },
      cancel: close,
    });
    this.editing = { id: prompt.id, box };
    this.list.querySelector(`[data-queue-id="${CSS.escape(prompt.id)}"]`)?.replaceChildren(box);
    input.focus();
  }

  /** After a redraw: the focus goes back to the same prompt's first button, else the list's first, else nowhere. */
  private restoreFocus(id: string | undefined): void {
    const item =
      (id !== undefined && this.list.querySelector<HTMLElement>(`[data-queue-id="${CSS.escape(id)}"]`)) ||
      this.list.querySelector<HTMLElement>('li');
    const target =
      item?.querySelector<HTMLElement>('textarea, button') ??
      (this.resumeButton.hidden ? undefined : this.resumeButton);
    if (target) {
      target.focus();
    } else {
      this.focusElsewhere();
    }
  }
}
