import * as assert from 'node:assert/strict';
import { isConversationId } from '../../../../../src/core/chat/store/conversationSummary';
import { newConversation, type Conversation } from '../../../../../src/core/chat/conversation/conversation';
import {
  EXPORT_FORMAT,
  exportJson,
  MAX_TRANSFER_BYTES,
} from '../../../../../src/core/chat/transfer/conversationExport';
import { IMPORT_BOUNDS, importConversation } from '../../../../../src/core/chat/transfer/conversationImport';
import { conversationMarkdown } from '../../../../../src/core/chat/transfer/conversationMarkdown';
import { parseMarkdownExport } from '../../../../../src/core/chat/transfer/markdownImport';

/** A conversation with everything the store keeps: a branch point, context, sources, usage, an error, a model. */
function fullConversation(): Conversation {
  const c = newConversation(1_700_000_000_000, 'file:///work/project');
  c.title = 'Generics';
  c.pinned = true;
  c.groundWithAxo = true;
  c.messages = [
    {
      id: 'u1',
      role: 'user',
      content: 'Explain generics <script>alert(1)</script>',
      createdAt: 1_700_000_000_001,
      context: [{ id: 'k1', label: 'main.ts:1-3', content: 'function id<T>(x: T) { return x; }', language: 'ts' }],
    },
    {
      id: 'a2',
      role: 'assistant',
      content: 'Generics let a function keep a type [1].',
      createdAt: 1_700_000_000_002,
      status: 'done',
      model: 'alpha',
      sources: [{ title: 'Generic programming', url: 'https://example.org/generics' }],
      usage: { input: 12, output: 9, reported: true },
      notice: 'Older turns were left out.',
    },
  ];
  c.branches = [
    {
      id: 'a1',
      role: 'assistant',
      content: 'An earlier answer.',
      createdAt: 1_700_000_000_002,
      status: 'error',
      error: { kind: 'server', message: 'The service failed (500).', action: 'retry', at: 1_700_000_000_003 },
      parentId: 'u1',
    },
  ];
  return c;
}

/** The JSON of an export whose conversation `change` altered. */
function exported(change: (conversation: Record<string, unknown>) => void): string {
  const envelope = JSON.parse((exportJson(fullConversation()) as { text: string }).text) as {
    conversation: Record<string, unknown>;
  };
  change(envelope.conversation);
  return JSON.stringify(envelope);
}

function problemsOf(text: string): string[] {
  const result = importConversation(text);
  assert.ok('problems' in result, 'the file was accepted');
  return result.problems;
}

describe('conversation export and import (src/core/chat/transfer/conversationExport, conversationImport)', () => {
  it('round trip: export then import gives the same conversation, branches included, under a new id', () => {
    const original = fullConversation();
    const written = exportJson(original);
    assert.ok('text' in written);
    const envelope = JSON.parse(written.text) as { format: string; version: number; conversation: Conversation };
    assert.equal(envelope.format, EXPORT_FORMAT);
    assert.equal(envelope.version, 1);
    const result = importConversation(written.text);
    assert.ok('conversation' in result, JSON.stringify(result));
    assert.equal(result.from, 'json');
    assert.notEqual(result.conversation.id, original.id, 'never overwrites: a new id');
    assert.ok(isConversationId(result.conversation.id));
    assert.deepEqual({ ...result.conversation, id: original.id }, original);
  });

  it('reads a file of an older store version through the store migrations (version 1: messages without ids)', () => {
    const text = JSON.stringify({
      format: EXPORT_FORMAT,
      version: 1,
      conversation: {
        id: 'old',
        title: 'Old',
        createdAt: 1,
        updatedAt: 2,
        messages: [
          { role: 'user', content: 'hi', createdAt: 1 },
          { role: 'assistant', content: 'hello', createdAt: 2, status: 'done' },
        ],
      },
    });
    const result = importConversation(text);
    assert.ok('conversation' in result, JSON.stringify(result));
    assert.deepEqual(
      result.conversation.messages.map((m) => [m.id, m.content]),
      [
        ['old-1', 'hi'],
        ['old-2', 'hello'],
      ],
    );
  });

  it('hostile files are refused with one sentence per problem: wrong types, path characters in ids, duplicates', () => {
    const problems = problemsOf(
      exported((c) => {
        const messages = c.messages as Record<string, unknown>[];
        messages[0].id = '../../etc/passwd';
        messages[1].role = 'system';
        messages[1].content = { toString: 'x' };
        (c.branches as Record<string, unknown>[])[0].parentId = 'nobody';
        c.title = 42;
      }),
    );
    assert.deepEqual(problems, [
      'conversation.title is missing or is not a string.',
      'conversation.messages[0].id is not a valid id (letters, digits, - and _, at most 128).',
      'conversation.messages[1].role is not one of user, assistant.',
      'conversation.messages[1].content is missing or is not a string.',
      'conversation.branches[0] follows the message nobody, which the file does not have.',
    ]);
    const twice = problemsOf(exported((c) => ((c.messages as Record<string, unknown>[])[1].id = 'u1')));
    assert.deepEqual(twice, ['conversation.messages[1].id "u1" appears twice: every message needs its own id.']);
  });

  it('bounds: size, depth, string length and counts are refused before anything else is read', () => {
    assert.match(problemsOf('{}')[0], /not a conversation exported by ALPHA/);
    const big = importConversation('{}', MAX_TRANSFER_BYTES + 1);
    assert.ok('problems' in big);
    assert.match(big.problems[0], /more than the 64 MB an import reads/);
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    assert.match(problemsOf(`{"a":${deep}}`)[0], /nested deeper than 16 levels/);
    const huge = exported(
      (c) => ((c.messages as Record<string, unknown>[])[0].content = 'x'.repeat(IMPORT_BOUNDS.stringChars + 1)),
    );
    assert.deepEqual(problemsOf(huge), [
      `file.conversation.messages[0].content is longer than ${IMPORT_BOUNDS.stringChars} characters.`,
    ]);
    const many = exported((c) => {
      (c.messages as Record<string, unknown>[])[0].context = Array.from(
        { length: IMPORT_BOUNDS.listEntries + 1 },
        () => 1,
      );
    });
    assert.match(problemsOf(many)[0], /context has more than 10000 entries/);
    const tooManyProblems = exported((c) => {
      c.messages = Array.from({ length: 40 }, () => ({ id: 5 }));
    });
    const listed = problemsOf(tooManyProblems);
    assert.equal(listed.length, 13);
    assert.match(listed[12], /and \d+ more problems/);
  });

  it('not JSON, another format, a newer version: each says so', () => {
    assert.match(problemsOf('{"format": ')[0], /^The file is not valid JSON: /);
    assert.match(
      problemsOf(JSON.stringify({ format: 'other', version: 1 }))[0],
      /"format" is not "alpha-axo.conversation"/,
    );
    assert.match(problemsOf(JSON.stringify({ format: EXPORT_FORMAT, version: 2 }))[0], /newer version/);
    assert.match(problemsOf(exported((c) => (c.version = 999)))[0], /newer version/);
    assert.match(problemsOf(exported((c) => (c.messages = [])))[0], /holds no messages/);
    assert.match(problemsOf('just some text')[0], /neither JSON nor Markdown exported by ALPHA/);
  });

  it('script in text is kept as text (the chat draws it inert), and a conversation id with path characters is replaced', () => {
    const result = importConversation(exported((c) => (c.id = '../../../evil')));
    assert.ok('conversation' in result);
    assert.ok(isConversationId(result.conversation.id));
    assert.equal(result.conversation.messages[0].content, 'Explain generics <script>alert(1)</script>');
  });
});

describe('Markdown import (src/core/chat/transfer/markdownImport)', () => {
  it('reads the Markdown export back: prompts and replies in order, split outside code fences, times dropped', () => {
    const c = fullConversation();
    c.messages[1].content = 'Here:\n\n```md\n## You · 10:00\nnot a heading\n```\n\nDone.';
    c.messages.push({ id: 'u3', role: 'user', content: 'And then?', createdAt: 5 });
    c.messages.push({ id: 'a4', role: 'assistant', content: 'Stopped here', createdAt: 6, status: 'stopped' });
    const result = importConversation(conversationMarkdown(c));
    assert.ok('conversation' in result, JSON.stringify(result));
    assert.equal(result.from, 'markdown');
    const messages = result.conversation.messages;
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.match(messages[0].content, /Explain generics <script>/);
    assert.match(messages[1].content, /## You · 10:00\nnot a heading/);
    assert.equal(messages[1].model, 'alpha');
    assert.deepEqual(
      [messages[2].content, messages[3].content, messages[3].status],
      ['And then?', 'Stopped here', 'stopped'],
    );
    assert.equal(result.conversation.title, 'Generics');
    assert.ok(
      messages.every((m, i) => i === 0 || m.createdAt > messages[i - 1].createdAt),
      'kept in order',
    );
  });

  it('a Markdown file that is not an export is refused', () => {
    const result = parseMarkdownExport('# Notes\n\nSome text.\n');
    assert.ok('problems' in result);
  });
});
