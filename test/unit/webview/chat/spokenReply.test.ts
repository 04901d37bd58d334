import * as assert from 'node:assert/strict';
import {
  firstSentence,
  isAnnounceMode,
  replyAnnouncement,
  spokenStart,
  spokenText,
  WHOLE_MODE_MAX_CHARS,
  WHOLE_REPLY_CHARS,
} from '../../../../src/webview/chat/spokenReply';

describe('What a screen reader is told when a reply ends', () => {
  const long = `Rust is a systems language. ${'It has ownership and borrowing. '.repeat(12)}`;

  it('reads Markdown as text: code blocks, links, emphasis, headings and bullets', () => {
    const text = spokenText(
      '# Title\n\nUse **bold** and `code` with [the docs](https://x.test).\n\n```ts\nconst a = 1;\n```\n- one\n- two',
    );
    assert.equal(text, 'Title. Use bold and code with the docs. (code block) one two');
    // A code block of many lines says nothing of its lines, closed or not.
    assert.equal(spokenText('Before.\n\n```\na = 1\nb = 2\nc = 3\n```\n\nAfter.'), 'Before. (code block) After.');
    assert.equal(spokenText('Before.\n\n~~~py\na = 1\nb = 2'), 'Before. (code block)');
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

  /** The announcement as it was made from the whole reply's spoken text, before only a prefix was read. */
  function fromWholeText(markdown: string): string {
    const spoken = spokenText(markdown);
    if (spoken === '') {
      return 'ALPHA replied.';
    }
    return `ALPHA replied: ${spoken.length <= WHOLE_REPLY_CHARS ? spoken : firstSentence(spoken)}`;
  }

  it('reads only the start of a long reply, and says what reading all of it would say', () => {
    const paragraph = (i: number) => `Paragraph ${i} has **bold** and \`code\` in [a link](https://x.test/${i}).`;
    const cases = [
      // Paragraphs far past every prefix step.
      Array.from({ length: 20_000 }, (_, i) => paragraph(i)).join('\n\n'),
      // A code block over the first cut: its text is never spoken; what follows it is the first sentence.
      `\`\`\`ts\n${'const a = 1;\n'.repeat(2_000)}\`\`\`\n\n${'After the code. '.repeat(40)}`,
      // A first sentence longer than the limit, with no paragraph end for 200 KB.
      `${'word '.repeat(40_000)}\n${'More. '.repeat(1_000)}`,
      // One code block of 400 KB, then a short sentence: the whole reply is short when spoken, so all of it is read.
      `\`\`\`\n${'x = 1\n'.repeat(70_000)}\`\`\`\n\nThe end.`,
    ];
    for (const markdown of cases) {
      assert.equal(replyAnnouncement(markdown, 'firstSentence'), fromWholeText(markdown));
    }
    // Of 1.4 MB of paragraphs, no more than the first step (8 KB) is read for one sentence.
    const start = spokenStart(cases[0], WHOLE_REPLY_CHARS);
    assert.equal(start.complete, false);
    assert.ok(start.text.length < 8_192, String(start.text.length));
    // A code block of 400 KB: every step is read, then the whole.
    assert.equal(spokenStart(cases[3], WHOLE_REPLY_CHARS).complete, true);
  });

  it('whole: a reply longer than the limit is read to the limit, and says the rest is in the reply', () => {
    const markdown = Array.from({ length: 30_000 }, (_, i) => `Sentence number ${i} of a very long reply.`).join(
      '\n\n',
    );
    const said = replyAnnouncement(markdown, 'whole');
    assert.ok(said.startsWith(`ALPHA replied: ${spokenText(markdown.slice(0, 20_000)).slice(0, 5_000)}`));
    assert.ok(said.endsWith('… The rest is in the reply.'), said.slice(-80));
    assert.ok(said.length < WHOLE_MODE_MAX_CHARS + 60, String(said.length));
    const short = 'Just this. And that.';
    assert.equal(replyAnnouncement(short, 'whole'), `ALPHA replied: ${short}`);
  });

  it('knows the modes of alphaAxo.chat.announceReplies', () => {
    assert.ok(isAnnounceMode('whole'));
    assert.ok(!isAnnounceMode('loud'));
    assert.ok(!isAnnounceMode(undefined));
  });
});
