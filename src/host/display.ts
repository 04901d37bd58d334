import * as vscode from 'vscode';
import type { ChatDisplayView } from '../protocol/chatProtocol';

const MODES: readonly ChatDisplayView['announceReplies'][] = ['firstSentence', 'whole', 'startAndEnd'];

/** The largest text size the pages accept, in pixels (larger values are clamped). */
const MAX_FONT_SIZE = 64;

/** The setting names the chat and encyclopedia pages follow live. */
export const DISPLAY_SETTINGS = ['alphaAxo.chat.announceReplies', 'alphaAxo.chat.fontSize'] as const;

/** Whether a configuration change touches the display settings. */
export function affectsDisplay(e: vscode.ConfigurationChangeEvent): boolean {
  return DISPLAY_SETTINGS.some((name) => e.affectsConfiguration(name));
}

/**
 * `alphaAxo.chat.announceReplies` and `alphaAxo.chat.fontSize`, read fresh and made safe: an unknown mode is the
 * default, a size that is not a positive number is 0 (VS Code's), a huge one is clamped.
 */
export function readDisplay(): ChatDisplayView {
  const config = vscode.workspace.getConfiguration('alphaAxo.chat');
  const mode = config.get<string>('announceReplies', 'firstSentence');
  const size = Number(config.get<number>('fontSize', 0));
  return {
    announceReplies: MODES.find((m) => m === mode) ?? 'firstSentence',
    fontSize: Number.isFinite(size) && size > 0 ? Math.min(MAX_FONT_SIZE, Math.round(size)) : 0,
  };
}
