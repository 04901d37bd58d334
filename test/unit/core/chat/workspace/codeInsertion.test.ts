import * as assert from 'node:assert/strict';
import { fitInsertion } from '../../../../../src/core/chat/workspace/codeInsertion';

describe('fitInsertion (Insert at cursor)', () => {
  const block = 'function f() {\n  return 1;\n}';

  it('inserts a block as it is on an empty line', () => {
    assert.equal(fitInsertion(block, '', '', '\n'), block);
  });

  it("gives the block's later lines the indentation the cursor stands in", () => {
    assert.equal(fitInsertion(block, '    ', '', '\n'), 'function f() {\n      return 1;\n    }');
    assert.equal(fitInsertion('a\n\nb', '\t', '', '\n'), 'a\n\n\tb', 'blank lines stay blank');
  });

  it('does not indent after text before the cursor', () => {
    assert.equal(fitInsertion(block, 'const x = ', '', '\n'), block);
  });

  it('ends a multi-line block with a line break when text follows the cursor, in that indentation', () => {
    assert.equal(fitInsertion(block, '  ', 'rest();', '\n'), 'function f() {\n    return 1;\n  }\n  ');
    assert.equal(fitInsertion('one()', '', 'rest();', '\n'), 'one()', 'a one-line block goes in the line');
  });

  it("uses the document's line ends and drops one trailing line break of the block", () => {
    assert.equal(fitInsertion('a\r\nb\n', '', '', '\r\n'), 'a\r\nb');
  });
});
