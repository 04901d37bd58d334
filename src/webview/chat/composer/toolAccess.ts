import * as l10n from '@vscode/l10n';
import type { ToolAccessView, WebviewToHost } from '../../../protocol/chatProtocol';
import { h, icon } from '../../shared/dom';
import { isToolAccessLevel, TOOL_ACCESS_LEVELS, toolAccessLabel } from './toolAccessLevels';
import './toolAccess.css';

/**
 * "ALPHA may use: Nothing / AXO / AXO and reading / AXO, reading and edits", beside "Ground with AXO": what ALPHA may
 * call in this conversation. A native select, so the keyboard and screen readers work it as any other; the state is
 * the conversation's, sent by the host, and a choice goes to the host (`chat/tools`). Hidden where tool calling is off
 * (the state has no `toolAccess`).
 */
export class ToolAccessControl {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;

  constructor(private readonly post: (message: WebviewToHost) => void) {
    this.select = h(
      'select',
      { class: 'tool-access', 'aria-label': l10n.t('ALPHA may use') },
      ...TOOL_ACCESS_LEVELS.map((level) => h('option', { value: level }, toolAccessLabel(level))),
    );
    this.select.addEventListener('change', () => {
      if (isToolAccessLevel(this.select.value)) {
        this.post({ type: 'chat/tools', access: this.select.value });
      }
    });
    this.element = h(
      'label',
      {
        class: 'tool-access-label',
        hidden: true,
        title: l10n.t(
          'What ALPHA may use to answer in this conversation: the AXO encyclopedia, reading the workspace, proposing edits (a proposed edit changes nothing until you press Apply in its review)',
        ),
      },
      icon('tools'),
      h('span', { class: 'tool-access-caption', 'aria-hidden': 'true' }, l10n.t('ALPHA may use:')),
      this.select,
    );
  }

  /** Shows the conversation's level; hides the control when there is none (tool calling is off). */
  set(access: ToolAccessView | undefined): void {
    const known = access !== undefined && isToolAccessLevel(access);
    this.element.hidden = !known;
    if (known) {
      this.select.value = access;
    }
  }
}
