import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { branchPointCount } from '../../src/core/chat/conversation/branches';
import { exportJson } from '../../src/core/chat/transfer/conversationExport';
import { importConversation } from '../../src/core/chat/transfer/conversationImport';
import { ConversationStore } from '../../src/core/chat/store/conversationStore';
import { silentLogger } from '../../src/core/logger';
import { branchedConversation, pageState } from './branches.bench';
import { median, withDelayMonitor, type BenchFigure } from './benchFigure';

const ROUNDS = 10;
const TARGET_MS = 1_000;
const P99_TARGET_MS = 100;

/**
 * "Import Conversation…" of a JSON export of 500 messages with 50 branch points, as the command does it: the file
 * read, checked against the schema within bounds and parsed (conversationImport), written as a new conversation
 * through the real store, then shown as a switch shows one (read back from disk, the page's state). Each round is
 * timed from reading the file to the page's state; the event loop's delay is sampled over all rounds.
 */
export async function run(): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'alpha-import-bench-'));
  try {
    const original = branchedConversation();
    const written = exportJson(original);
    if ('error' in written) {
      throw new Error(written.error);
    }
    const file = join(dir, 'export.json');
    await writeFile(file, written.text);
    const store = new ConversationStore(join(dir, 'conversations'), silentLogger);
    const roundsMs: number[] = [];
    let branchesKept = true;
    const delay = await withDelayMonitor(async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const started = performance.now();
        const text = await readFile(file, 'utf8');
        const result = importConversation(text);
        if ('problems' in result) {
          throw new Error(result.problems.join(' '));
        }
        await store.save(result.conversation);
        const shown = await new ConversationStore(join(dir, 'conversations'), silentLogger).load(
          result.conversation.id,
        );
        if (!shown) {
          throw new Error('the imported conversation could not be read back');
        }
        pageState(shown);
        roundsMs.push(performance.now() - started);
        branchesKept &&= branchPointCount(shown) === branchPointCount(original);
      }
    });
    const worst = Math.max(...roundsMs);
    return [
      {
        name: `import a JSON export of ${original.messages.length} messages with ${branchPointCount(original)} branch points (${(written.text.length / 1024).toFixed(0)} KB): read, check, parse, save, show; worst of ${ROUNDS} (median ${median(roundsMs).toFixed(0)} ms; branches kept: ${branchesKept ? 'yes' : 'no'})`,
        value: `${worst.toFixed(0)} ms`,
        target: `< ${TARGET_MS} ms`,
        pass: worst < TARGET_MS && branchesKept,
      },
      {
        name: 'event loop delay over those imports: p99',
        value: `${delay.p99.toFixed(1)} ms (max ${delay.max.toFixed(0)} ms)`,
        target: `< ${P99_TARGET_MS} ms`,
        pass: delay.p99 < P99_TARGET_MS,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
