/** The levels of what ALPHA may use, as the composer's control lists them. Free of the DOM (unit-tested in Node). */
import * as l10n from '@vscode/l10n';
import type { ToolAccessView } from '../../../protocol/chatProtocol';

/** The levels in order, each including the ones before it. */
export const TOOL_ACCESS_LEVELS: readonly ToolAccessView[] = ['none', 'axo', 'read', 'edit'];

/** A level's label in the control. */
export function toolAccessLabel(access: ToolAccessView): string {
  switch (access) {
    case 'none':
      return l10n.t('Nothing');
    case 'axo':
      return 'AXO';
    case 'read':
      return l10n.t('AXO and reading');
    case 'edit':
      return l10n.t('AXO, reading and edits');
  }
}

/** Whether a value names a level (the control sends nothing else). */
export function isToolAccessLevel(value: unknown): value is ToolAccessView {
  return typeof value === 'string' && (TOOL_ACCESS_LEVELS as readonly string[]).includes(value);
}
