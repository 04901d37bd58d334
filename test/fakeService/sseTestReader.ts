/** A body read chunk by chunk; `error` is set when the read failed (a cut connection). */
export interface ReadChunks {
  chunks: Uint8Array[];
  error?: unknown;
}

/** Reads a fetch body chunk by chunk, keeping the chunk boundaries; a read error is returned, not thrown. */
export async function readChunks(res: Response): Promise<ReadChunks> {
  const chunks: Uint8Array[] = [];
  if (!res.body) {
    return { chunks };
  }
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        return { chunks };
      }
      chunks.push(value);
    }
  } catch (error) {
    return { chunks, error };
  }
}

/** Decodes chunks as UTF-8 (a leading BOM is dropped, as TextDecoder does). */
export function decodeChunks(chunks: readonly Uint8Array[]): string {
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** The payloads of `data:` lines, in order, split on LF, CRLF or lone CR, trimmed; other lines ignored. */
export function ssePayloads(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length).trim());
}

/** Content reassembled as the spec says, whether `[DONE]` came, and the payloads skipped on the way. */
export interface Reassembled {
  text: string;
  done: boolean;
  skipped: string[];
}

/** Reassembles content from SSE payloads as the spec says, stopping at `[DONE]`. */
export function reassemble(payloads: readonly string[]): Reassembled {
  let text = '';
  const skipped: string[] = [];
  for (const p of payloads) {
    if (p === '[DONE]') {
      return { text, done: true, skipped };
    }
    try {
      const v = JSON.parse(p) as { content?: unknown } | null;
      if (typeof v?.content === 'string') {
        text += v.content;
      } else {
        skipped.push(p);
      }
    } catch {
      skipped.push(p);
    }
  }
  return { text, done: false, skipped };
}

/** Reads until no byte arrives for `quietMs` (or the body ends); returns the text. The body is left open. */
export async function readUntilQuiet(res: Response, quietMs: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  if (!res.body) {
    return '';
  }
  const reader = res.body.getReader();
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const quiet = new Promise<'quiet'>((resolve) => {
      timer = setTimeout(() => resolve('quiet'), quietMs);
    });
    const next = await Promise.race([reader.read(), quiet]);
    clearTimeout(timer);
    if (next === 'quiet' || next.done) {
      reader.releaseLock();
      return decodeChunks(chunks);
    }
    chunks.push(next.value);
  }
}
