import type { HistoryMessage, HistoryPart, ResultItem } from '../../core/toolCalls/toolHistory';
import type { ChatMessage } from '../../core/service/alphaClient';
import type { LanguageModelChatRequestMessage } from './chatApi';

/** How many strings a prompt-tsx tree may give before the rest is left out (a hostile tree is bounded). */
const MAX_TREE_STRINGS = 10_000;

/**
 * A request message's parts as the core's history reads them. VS Code's part classes are told apart by their
 * fields, so this works whichever VS Code made them: text parts (`value: string`), tool calls (`callId`, `name`,
 * `input`), tool results (`callId`, `content`), data parts (`mimeType`, `data`), prompt-tsx parts (`value` a tree).
 */
export function historyMessage(message: LanguageModelChatRequestMessage): HistoryMessage {
  const role = roleOf(message.role);
  if (typeof message.content === 'string') {
    return { role, parts: [{ kind: 'text', text: message.content }] };
  }
  const parts: HistoryPart[] = [];
  for (const part of message.content) {
    const p = part as Record<string, unknown>;
    if (typeof p.callId === 'string' && typeof p.name === 'string' && 'input' in p) {
      parts.push({ kind: 'call', callId: p.callId, name: p.name, input: p.input });
    } else if (typeof p.callId === 'string' && Array.isArray(p.content)) {
      parts.push({ kind: 'result', callId: p.callId, items: p.content.map(resultItem) });
    } else if (typeof p.value === 'string') {
      parts.push({ kind: 'text', text: p.value });
    } else {
      const item = resultItem(part);
      if (item.kind === 'text') {
        parts.push({ kind: 'text', text: item.text });
      } else if (item.kind === 'data') {
        parts.push({
          kind: 'text',
          text: `\n[A ${item.mimeType} part of ${item.bytes} bytes was left out: it is not text.]\n`,
        });
      }
    }
  }
  return { role, parts };
}

/** One item of a tool result. */
function resultItem(part: unknown): ResultItem {
  const p = (part ?? {}) as Record<string, unknown>;
  if (typeof p.value === 'string') {
    return { kind: 'text', text: p.value };
  }
  if (typeof p.mimeType === 'string' && p.data instanceof Uint8Array) {
    if (/^text\/|[/+]json$/.test(p.mimeType)) {
      return { kind: 'text', text: new TextDecoder().decode(p.data) };
    }
    return { kind: 'data', mimeType: p.mimeType, bytes: p.data.byteLength };
  }
  if (p.value && typeof p.value === 'object') {
    // A prompt-tsx part (Copilot's tools return their results so): its text is the strings in its tree.
    const text = treeText(p.value);
    if (text) {
      return { kind: 'text', text };
    }
  }
  return { kind: 'other', what: 'A part of a kind ALPHA cannot read was left out.' };
}

/** The `text` strings of a prompt-tsx tree, in order, without recursion (a deep tree cannot overflow the stack). */
function treeText(tree: unknown): string {
  const found: string[] = [];
  const stack: unknown[] = [tree];
  while (stack.length && found.length < MAX_TREE_STRINGS) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        stack.push(node[i]);
      }
    } else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (typeof record.text === 'string') {
        found.push(record.text);
      }
      const children = Object.entries(record).filter(([key]) => key !== 'text');
      for (let i = children.length - 1; i >= 0; i--) {
        stack.push(children[i][1]);
      }
    }
  }
  return found.join('');
}

/** `MESSAGE_ROLE` in chatApi.ts (imported as a type only, so this file runs in plain Node for its tests). */
function roleOf(role: number): ChatMessage['role'] {
  if (role === 2) {
    return 'assistant';
  }
  return role === 3 ? 'system' : 'user';
}
