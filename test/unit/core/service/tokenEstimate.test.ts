import * as assert from 'node:assert/strict';
import { estimateTokens } from '../../../../src/core/service/tokenEstimate';

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
});
