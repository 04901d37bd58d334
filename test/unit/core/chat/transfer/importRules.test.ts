import * as assert from 'node:assert/strict';
import {
  newConversation,
  type Conversation,
  type StoredMessage,
} from '../../../../../src/core/chat/conversation/conversation';
import { claimPrompt, queueEntries } from '../../../../../src/core/chat/conversation/queuedPrompts';
import { EXPORT_FORMAT } from '../../../../../src/core/chat/transfer/conversationExport';
import { importConversation } from '../../../../../src/core/chat/transfer/conversationImport';
import { conversationMarkdown } from '../../../../../src/core/chat/transfer/conversationMarkdown';
import { parseMarkdownExport } from '../../../../../src/core/chat/transfer/markdownImport';

const NOW = 1_800_000_000_000;

/** A JSON export of a conversation whose queue was written by hand. */
function fileWithQueue(queue: unknown): string {
  const c = newConversation(1_700_000_000_000);
  c.messages = [{ id: 'u1', role: 'user', content: 'hello', createdAt: 1_700_000_000_001 }];
  return JSON.stringify({ format: EXPORT_FORMAT, version: 1, conversation: { ...c, queue } });
}

describe('What an import may not do (issue 36, item 4)', () => {
  it('an imported queue arrives paused, with models the lineup can send, times clamped, every part removable', () => {
    const text = fileWithQueue([
      {
        owner: 'elsewhere',
        changedAt: 9e15,
        running: true,
        prompts: [
          {
            id: 'q1',
            text: 'send me',
            model: 'sky',
            groundWithAxo: true,
            queuedAt: 9e15,
            context: [{ id: 'c1', label: ' \n ', content: 'hidden text' }],
          },
          { id: 'q2', text: 'and me', model: 'alpha', groundWithAxo: false, queuedAt: 5 },
        ],
      },
    ]);
    const result = importConversation(text, undefined, 'alpha', NOW);
    assert.ok('conversation' in result, JSON.stringify(result));
    const conversation: Conversation = result.conversation;
    const [part] = conversation.queue ?? [];
    assert.equal(part.running, false, 'paused: nothing is sent until the user resumes');
    assert.ok(part.changedAt <= NOW);
    const [sky, alpha] = part.prompts;
    assert.equal(sky.model, 'alpha', 'a model the lineup cannot send becomes the current one');
    assert.match(sky.note ?? '', /"sky".*alpha/, 'and the queue says so');
    assert.equal(alpha.model, 'alpha');
    assert.equal(alpha.note, undefined);
    assert.ok(sky.queuedAt <= NOW);
    assert.equal(sky.context?.[0].label, 'c1', 'a chip the queue shows by name');
    const entries = queueEntries(conversation, 'this-window', NOW);
    assert.ok(
      entries.every((e) => e.mine && e.waiting),
      'visible, waiting and this window may change each',
    );
    assert.ok(claimPrompt(conversation, 'this-window', 'q1', NOW), 'the prompt can be removed');
  });

  it('a stored part with a running time in the future waits (a hand-written file)', () => {
    const c = newConversation(NOW);
    c.queue = [{ owner: 'gone', changedAt: 9e15, running: true, prompts: [] }];
    c.queue[0].prompts.push({ id: 'p', text: 'x', model: 'alpha', groundWithAxo: false, queuedAt: 1 });
    assert.ok(claimPrompt(c, 'me', 'p', NOW), 'removable');
  });

  it('the Markdown export ends each message unambiguously: every reply shape comes back, one stopped mid-fence too', () => {
    const c = newConversation(NOW);
    const reply = (id: string, content: string, more: Partial<StoredMessage> = {}): StoredMessage => ({
      id,
      role: 'assistant',
      content,
      createdAt: NOW,
      status: 'done',
      model: 'alpha',
      ...more,
    });
    const prompt = (id: string, content: string): StoredMessage => ({ id, role: 'user', content, createdAt: NOW });
    c.messages = [
      prompt('u1', 'Write code'),
      reply('a1', 'Here:\n\n```ts\nconst a = 1;\n## You · not a heading', { status: 'stopped' }),
      prompt('u2', 'Tildes?'),
      reply('a2', '~~~~\n## ALPHA · still code\n~~~', { status: 'interrupted' }),
      prompt('u3', 'Plain'),
      reply('a3', 'A closed block:\n\n```\nx\n```\n\nDone.'),
      prompt('u4', 'Nested fences'),
      reply('a4', '````md\n```js\ninner\n```\n', { status: 'stopped' }),
      prompt('u5', 'Empty reply'),
      reply('a5', '', { status: 'error', error: { kind: 'network', message: 'Offline', at: NOW } as never }),
      prompt('u6', 'Last'),
      reply('a6', 'The end.'),
    ];
    const read = parseMarkdownExport(conversationMarkdown(c), NOW);
    assert.ok('conversation' in read, JSON.stringify(read));
    const back = read.conversation.messages;
    assert.equal(back.length, c.messages.length, 'no message swallowed by an open fence');
    back.forEach((m, i) => {
      const original = c.messages[i];
      assert.equal(m.role, original.role, `message ${i}`);
      if (!original.error) {
        assert.equal(m.content, original.content.replace(/\n+$/, ''), `message ${i}'s text`);
      }
      if (original.status === 'stopped' || original.status === 'interrupted') {
        assert.equal(m.status, original.status, `message ${i}'s status`);
      }
    });
  });
});
