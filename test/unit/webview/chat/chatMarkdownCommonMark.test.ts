import * as assert from 'node:assert/strict';
import { tests as examples } from 'commonmark-spec';
import { everyChar, randomCuts, renderStreamed, renderWhole } from '../../../support/streamedMarkdown';

/** How many seeded random cuttings each example is streamed in (as well as one character at a time). */
const CUTTINGS = 12;

/**
 * The examples whose streamed rendering may differ from the whole, each with why (docs/architecture.md lists them too).
 * Empty: every example ends as the whole text renders.
 */
const EXCEPTIONS = new Map<number, string>();

/** The first way of streaming `markdown` that does not end as the whole renders, or undefined. */
function firstDifference(markdown: string, number: number): string | undefined {
  const whole = renderWhole(markdown);
  const ways: [string, number[]][] = [['one character at a time', everyChar(markdown)]];
  for (let seed = 1; seed <= CUTTINGS; seed++) {
    // Short cuts as a fast stream sends them, longer ones as a page catching up after a busy moment reads them.
    ways.push([`random cuts, seed ${seed}`, randomCuts(markdown, number * 100 + seed, seed % 2 ? 6 : 40)]);
  }
  for (const [way, cuts] of ways) {
    const streamed = renderStreamed(markdown, cuts);
    if (streamed !== whole) {
      return `example ${number} (${way}): ${JSON.stringify(markdown)}\n  whole:    ${JSON.stringify(whole)}\n  streamed: ${JSON.stringify(streamed)}`;
    }
  }
  return undefined;
}

describe('chat webview: streamed Markdown against the CommonMark examples', () => {
  it(`has the spec's ${examples.length} examples`, () => {
    assert.equal(examples.length, 652);
  });

  it('every example streamed in pieces ends rendered exactly as the whole text', () => {
    const differences: string[] = [];
    for (const example of examples) {
      const difference = firstDifference(example.markdown, example.number);
      if (difference && !EXCEPTIONS.has(example.number)) {
        differences.push(difference);
      }
    }
    assert.deepEqual(differences, [], `${differences.length} of ${examples.length} differ:\n${differences.join('\n')}`);
  });

  it('a reference defined at the end of a reply links the text that used it before', () => {
    const reply = [
      'See [the guide][1] and [the API][api], or ![the diagram][fig].',
      '',
      '- a list item citing [1]',
      '',
      '> a quote citing [the API][api]',
      '',
      '[1]: https://example.com/guide',
      '[api]: https://example.com/api "API"',
      '[fig]: https://example.com/fig.png',
      '',
    ].join('\n');
    const whole = renderWhole(reply);
    assert.equal((whole.match(/<a href=/g) ?? []).length, 4, whole);
    assert.equal(renderStreamed(reply, everyChar(reply)), whole);
    for (let seed = 1; seed <= 20; seed++) {
      assert.equal(renderStreamed(reply, randomCuts(reply, seed, 24)), whole, `seed ${seed}`);
    }
  });

  it('a definition seen while still being written is not kept when it turns out not to be one', () => {
    const reply = 'See [x].\n\n[x]: /url and more text\n';
    // Cut where `[x]: /url` is a complete definition: the paragraph before it is finished then.
    assert.equal(renderStreamed(reply, [reply.indexOf(' and')]), renderWhole(reply));
    assert.doesNotMatch(renderWhole(reply), /<a /);
  });

  it('a numbered list continued after an empty item stays one list', () => {
    const reply = '1. foo\n2.\n3. bar\n\nThen a paragraph.\n';
    assert.equal(renderStreamed(reply, everyChar(reply)), renderWhole(reply));
    assert.equal((renderWhole(reply).match(/<ol/g) ?? []).length, 1);
  });
});
