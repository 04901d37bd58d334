/** What a code sink writes to: an editor, opened on the first write. */
export interface CodeEditorPort {
  /** Opens the (empty) editor; called once, before the first edit. */
  open(): Promise<void>;
  /** Adds `text` at the end of the editor; false when the edit was refused. */
  append(text: string): Promise<boolean>;
  /** Makes the editor hold `code` alone; false when the edit was refused. */
  replace(code: string): Promise<boolean>;
}

/**
 * An editor that code streams into: opened on the first non-empty write, then extended at the end while the code
 * grows (replaced whole if an earlier part changed). It tracks what the editor holds from the edits that were made,
 * so the editor is never read back.
 */
export class CodeSink {
  private isOpen = false;
  /** What the editor holds, in the pieces written (joined only when a whole write compares with it). */
  private pieces: string[] = [];

  constructor(private readonly editor: CodeEditorPort) {}

  /** Whether an editor was opened (the first non-empty write happened). */
  get opened(): boolean {
    return this.isOpen;
  }

  /** Makes the editor hold `code`. Writes nothing for empty code before the editor exists. */
  async write(code: string): Promise<void> {
    const written = this.pieces.join('');
    this.pieces = written === '' ? [] : [written];
    if (code === written || (!this.isOpen && code === '')) {
      return;
    }
    if (code.startsWith(written)) {
      await this.append(code.slice(written.length));
      return;
    }
    await this.ensureOpen();
    if (await this.editor.replace(code)) {
      this.pieces = [code];
    }
  }

  /**
   * Adds `text` at the end, in work proportional to `text` (the editor is neither read nor compared), as code
   * streams in. Writes nothing for empty text.
   */
  async append(text: string): Promise<void> {
    if (text === '') {
      return;
    }
    await this.ensureOpen();
    if (await this.editor.append(text)) {
      this.pieces.push(text);
    }
  }

  private async ensureOpen(): Promise<void> {
    if (!this.isOpen) {
      await this.editor.open();
      this.isOpen = true;
    }
  }
}
