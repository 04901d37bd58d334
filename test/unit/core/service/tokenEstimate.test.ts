import * as assert from 'node:assert/strict';
import { estimateTokens } from '../../../../src/core/service/tokenEstimate';
import { random as seeded } from '../../../support/streamedMarkdown';
import { assertGrowth } from '../../../support/growth';

/** The same rules written another way (one regular expression): the oracle for the table-driven loop. */
function reference(text: string): number {
  let tokens = 0;
  for (const [piece] of text.matchAll(/[A-Za-z0-9_]+| +|\t+|\r\n|[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g)) {
    if (/^\w/.test(piece)) {
      tokens += Math.ceil(piece.length / 4);
    } else if (piece[0] === '\t' || (piece[0] === ' ' && piece.length >= 4)) {
      tokens += Math.ceil(piece.length / 8);
    } else if (piece[0] !== ' ') {
      tokens++;
    }
  }
  return tokens;
}

describe('estimateTokens (every budget: chat context, code-assistance context, provideTokenCount)', () => {
  it('counts words by four characters, symbols one each, short runs of spaces folded', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('a'), 1);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('snake_case_9'), 3);
    assert.equal(estimateTokens('hello world'), 2 + 2);
    assert.equal(estimateTokens('a + b;'), 4);
    assert.equal(estimateTokens('a   b'), 2, 'three spaces fold into the next token');
  });

  it('counts line ends, long indentation by eight and every other character as one', () => {
    assert.equal(estimateTokens('a\nb'), 3);
    assert.equal(estimateTokens('a\r\nb'), 3, 'CRLF is one line end');
    assert.equal(estimateTokens('a\rb'), 3, 'a lone CR counts one');
    assert.equal(estimateTokens('        x'), 2);
    assert.equal(estimateTokens('                 x'), 4, 'seventeen spaces are three tokens');
    assert.equal(estimateTokens('\t\tx'), 2);
    assert.equal(estimateTokens('\tx'), 2, 'a single tab counts');
    assert.equal(estimateTokens('東京'), 2);
    assert.equal(estimateTokens('café'), 2);
    assert.equal(estimateTokens('🚀'), 1, 'a surrogate pair is one character');
    assert.equal(estimateTokens('👍🏽'), 2);
    assert.equal(estimateTokens('\ud800x'), 2, 'a lone surrogate is one character');
    assert.equal(estimateTokens('a\u00a0b'), 3, 'a no-break space counts one');
  });

  it('errs on the high side of characters / 4 for ordinary code', () => {
    const code = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n'.repeat(20);
    assert.ok(estimateTokens(code) >= code.length / 4, `${estimateTokens(code)} for ${code.length} characters`);
  });

  it('agrees with the rules written as one regular expression on 50,000 random texts', () => {
    const pieces = [
      'a',
      'Z',
      '9',
      '_',
      ' ',
      '  ',
      '    ',
      '\t',
      '\n',
      '\r\n',
      '\r',
      'é',
      '東',
      '🚀',
      '\ud800',
      '\udc00',
    ];
    pieces.push(';', '{', '\u00a0', '\u007f', '\u0080', 'word', '        ');
    const random = seeded(39);
    for (let i = 0; i < 50_000; i++) {
      let text = '';
      for (let n = Math.floor(random() * 30); n > 0; n--) {
        text += pieces[Math.floor(random() * pieces.length)];
      }
      assert.equal(estimateTokens(text), reference(text), JSON.stringify(text));
    }
  });

  it('estimates a reply of one word, one run of blanks, CRLF runs and surrogate halves in linear time', () => {
    const inputs: Record<string, (n: number) => string> = {
      'one word': (n) => 'a'.repeat(n),
      'one run of spaces': (n) => ' '.repeat(n),
      'spaces and tabs alternating': (n) => ' \t'.repeat(n / 2),
      'CRLF runs': (n) => '\r\n\r'.repeat(n / 3),
      'high surrogates alone': (n) => '\ud800'.repeat(n),
      'pairs and halves': (n) => '🚀\udc00x'.repeat(n / 4),
    };
    for (const [name, make] of Object.entries(inputs)) {
      assertGrowth(`estimateTokens, ${name}`, make, estimateTokens, { n: 200_000 });
    }
  });
});
