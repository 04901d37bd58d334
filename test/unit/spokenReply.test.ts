import * as assert from 'node:assert/strict';
import {
  firstSentence,
  isAnnounceMode,
  replyAnnouncement,
  spokenText,
  WHOLE_REPLY_CHARS,
} from '../../src/webview/chat/spokenReply';

describe('What a screen reader is told when a reply ends', () => {
  const long = `Rust is a systems language. ${'It has ownership and borrowing. '.repeat(12)}`;

  it('reads Markdown as text: code blocks, links, emphasis, headings and bullets', () => {
    const text = spokenText(
      '# Title\n\nUse **bold** and `code` with [the docs](https://x.test).\n\n```ts\nconst a = 1;\n```\n- one\n- two',
    );
    assert.equal(text, 'Title. Use bold and code with the docs. (code block) one two');
  });

  it('takes the first sentence, or cuts a sentence longer than the limit', () => {
    assert.equal(firstSentence('Hello there! How are you?'), 'Hello there!');
    assert.equal(firstSentence('Version 1.2 is out. Next.'), 'Version 1.2 is out.');
    const endless = 'word '.repeat(200);
    assert.equal(firstSentence(endless).length, WHOLE_REPLY_CHARS);
    assert.ok(firstSentence(endless).endsWith('…'));
  });

  it('firstSentence: the whole reply up to 300 characters, else its first sentence', () => {
    assert.equal(replyAnnouncement('Short. Two sentences.', 'firstSentence'), 'ALPHA replied: Short. Two sentences.');
    assert.ok(long.length > WHOLE_REPLY_CHARS);
    assert.equal(replyAnnouncement(long, 'firstSentence'), 'ALPHA replied: Rust is a systems language.');
  });

  it('whole reads everything; startAndEnd no text; an empty reply only that it ended', () => {
    assert.equal(replyAnnouncement(long, 'whole'), `ALPHA replied: ${long.trim()}`);
    assert.equal(replyAnnouncement(long, 'startAndEnd'), 'ALPHA replied.');
    assert.equal(replyAnnouncement('  ', 'firstSentence'), 'ALPHA replied.');
  });

  it('knows the modes of alphaAxo.chat.announceReplies', () => {
    assert.ok(isAnnounceMode('whole'));
    assert.ok(!isAnnounceMode('loud'));
    assert.ok(!isAnnounceMode(undefined));
  });
});
