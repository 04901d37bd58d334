import * as assert from 'node:assert/strict';
import { asciiJson, textOfBytes } from '../../../../src/core/storage/asciiJson';
import { assertGrowth } from '../../../support/growth';
import { random as seeded } from '../../../support/streamedMarkdown';

/** A random string of ASCII, Latin-1, BMP and astral characters, lone surrogates and control characters. */
function randomText(length: number, random: () => number): string {
  const pools = [
    () => String.fromCharCode(0x20 + Math.floor(random() * 0x5f)),
    () => String.fromCharCode(Math.floor(random() * 0x20)),
    () => '"\\/'[Math.floor(random() * 3)],
    () => String.fromCharCode(0x80 + Math.floor(random() * 0x180)),
    () => String.fromCharCode(0x3040 + Math.floor(random() * 0x5000)),
    () => String.fromCodePoint(0x1f300 + Math.floor(random() * 0x300)),
    () => String.fromCharCode(0xd800 + Math.floor(random() * 0x800)), // a lone surrogate
    () => '\u2028\u2029\ufeff\uffff'[Math.floor(random() * 4)],
  ];
  let text = '';
  while (text.length < length) {
    text += pools[Math.floor(random() * pools.length)]();
  }
  return text;
}

describe('conversation files in ASCII (asciiJson, textOfBytes)', () => {
  it('gives back every value JSON.stringify wrote, in ASCII only', () => {
    const random = seeded(39);
    for (let i = 0; i < 2_000; i++) {
      const value = { content: randomText(1 + Math.floor(random() * 60), random), n: i, list: ['é', '🚀'] };
      const text = asciiJson(JSON.stringify(value));
      assert.match(text, /^[\x00-\x7f]*$/, 'the text is ASCII');
      assert.deepEqual(JSON.parse(text), value);
      // Read back as the store reads it: from bytes, through the Latin-1 fast path.
      assert.deepEqual(JSON.parse(textOfBytes(Buffer.from(text, 'latin1'))), value);
    }
  });

  it('leaves an ASCII text as it is (the same string), and escapes a pair as its two halves', () => {
    const plain = JSON.stringify({ content: 'plain "quoted" \\ text\n' });
    assert.equal(asciiJson(plain), plain);
    assert.equal(asciiJson('"café 🚀"'), '"caf\\u00e9 \\ud83d\\ude80"');
  });

  it('reads a file written before, in UTF-8, as UTF-8', () => {
    const old = JSON.stringify({ content: 'Ærøskøbing 東京 👨‍👩‍👧' });
    assert.equal(textOfBytes(Buffer.from(old, 'utf8')), old);
    assert.equal(textOfBytes(Buffer.alloc(0)), '');
  });

  it('grows linearly with the text (n vs 8n), with and without characters to escape', () => {
    const mixed = (n: number) => 'Lorem ipsum café 🚀 dolor '.repeat(Math.ceil(n / 26)).slice(0, n);
    assertGrowth('asciiJson, mixed', mixed, (text) => asciiJson(JSON.stringify(text)).length, { n: 100_000 });
    assertGrowth(
      'textOfBytes, ASCII',
      (n) => Buffer.from('a'.repeat(n)),
      (b) => textOfBytes(b).length,
      {
        n: 1_000_000,
      },
    );
    assertGrowth(
      'textOfBytes, UTF-8',
      (n) => Buffer.from(mixed(n)),
      (b) => textOfBytes(b).length,
      { n: 200_000 },
    );
  });
});
