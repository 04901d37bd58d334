import * as assert from 'node:assert/strict';
import { CodeSink, type CodeEditorPort } from '../../../../src/features/assist/codeSink';

/** An editor that keeps its text and the calls made to it; `refuse` makes the next edits fail. */
function fakeEditor(): CodeEditorPort & { text: string; calls: string[]; refuse: boolean } {
  const editor = {
    text: '',
    calls: [] as string[],
    refuse: false,
    open: () => {
      editor.calls.push('open');
      return Promise.resolve();
    },
    append: (text: string) => {
      editor.calls.push(`append ${JSON.stringify(text)}`);
      if (!editor.refuse) {
        editor.text += text;
      }
      return Promise.resolve(!editor.refuse);
    },
    replace: (code: string) => {
      editor.calls.push(`replace ${JSON.stringify(code)}`);
      if (!editor.refuse) {
        editor.text = code;
      }
      return Promise.resolve(!editor.refuse);
    },
  };
  return editor;
}

describe('assist: the editor tests stream into (src/features/assist/codeSink)', () => {
  it('opens nothing for empty code, then opens once on the first code', async () => {
    const editor = fakeEditor();
    const sink = new CodeSink(editor);
    await sink.write('');
    await sink.append('');
    assert.equal(sink.opened, false);
    assert.deepEqual(editor.calls, []);
    await sink.write('a');
    await sink.write('ab');
    assert.equal(sink.opened, true);
    assert.deepEqual(editor.calls, ['open', 'append "a"', 'append "b"']);
  });

  it('extends the editor with only what the code adds while it grows, and writes nothing when it is the same', async () => {
    const editor = fakeEditor();
    const sink = new CodeSink(editor);
    await sink.write('it(');
    await sink.append("'adds'");
    await sink.write("it('adds', () => {");
    await sink.write("it('adds', () => {");
    assert.equal(editor.text, "it('adds', () => {");
    assert.deepEqual(editor.calls, ['open', 'append "it("', `append "'adds'"`, 'append ", () => {"']);
  });

  it('replaces the whole text when an earlier part changed', async () => {
    const editor = fakeEditor();
    const sink = new CodeSink(editor);
    await sink.write('const a = 1;');
    await sink.write('let a = 1;\n');
    await sink.write('');
    assert.equal(editor.text, '');
    assert.deepEqual(editor.calls, ['open', 'append "const a = 1;"', 'replace "let a = 1;\\n"', 'replace ""']);
    await sink.write('x');
    assert.equal(editor.text, 'x', 'after emptying, the code grows again from nothing');
  });

  it('counts only the edits the editor took: a refused one is made again by the next write', async () => {
    const editor = fakeEditor();
    const sink = new CodeSink(editor);
    await sink.write('one');
    editor.refuse = true;
    await sink.write('one two');
    await sink.write('ONE');
    editor.refuse = false;
    await sink.write('one two three');
    assert.equal(editor.text, 'one two three');
    assert.deepEqual(editor.calls.slice(-1), ['append " two three"']);
  });
});
