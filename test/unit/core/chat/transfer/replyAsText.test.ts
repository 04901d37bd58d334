import * as assert from 'node:assert/strict';
import { replyAsText } from '../../../../../src/core/chat/transfer/conversationMarkdown';
import type { StoredError } from '../../../../../src/core/chat/conversation/conversation';

const cut: StoredError = {
  kind: 'cut',
  message: 'The reply was cut off: the connection closed before the reply was complete.',
  action: 'retry',
  at: 1,
};

describe('Open Reply as Text', () => {
  it('shows the text that arrived, then the error’s sentence, as the chat does', () => {
    assert.equal(
      replyAsText({ content: 'The first half of a **reply**\n', error: cut }),
      'The first half of a **reply**\n\n> The reply was cut off: the connection closed before the reply was complete.\n',
    );
  });

  it('shows the sentence alone for a reply that failed before any text, and every line of it quoted', () => {
    const refused: StoredError = {
      kind: 'badKey',
      message: 'The chat API key was refused.\nSet it again.',
      action: 'setChatKey',
      at: 1,
    };
    assert.equal(replyAsText({ content: '', error: refused }), '> The chat API key was refused.\n> Set it again.\n');
  });

  it('shows a reply without an error exactly as it is', () => {
    assert.equal(replyAsText({ content: 'Done.\n\n```ts\nx\n```' }), 'Done.\n\n```ts\nx\n```');
  });
});
