import { startFakeService, type FakeServiceOptions } from './fakeService';
import { FRAMINGS, isFraming } from './sseStream';

/** Parses `--port N`, `--host H`, `--chat-key K`, `--axo-key K`, `--token-delay-ms N`, `--framing standard|lines|ndjson`. */
export function parseCliArgs(argv: readonly string[]): FakeServiceOptions {
  const options: FakeServiceOptions = { port: 0 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (value === undefined) {
      throw new Error(`Missing value for ${flag}`);
    }
    switch (flag) {
      case '--port':
        options.port = Number(value);
        break;
      case '--host':
        options.host = value;
        break;
      case '--chat-key':
        options.chatKey = value;
        break;
      case '--axo-key':
        options.axoKey = value;
        break;
      case '--token-delay-ms':
        options.tokenDelayMs = Number(value);
        break;
      case '--framing':
        if (!isFraming(value)) {
          throw new Error(`--framing must be one of ${FRAMINGS.join(', ')}`);
        }
        options.framing = value;
        break;
      default:
        throw new Error(`Unknown option ${flag}`);
    }
  }
  if (!Number.isInteger(options.port) || (options.port ?? 0) < 0) {
    throw new Error('--port must be a non-negative integer');
  }
  return options;
}

async function main(): Promise<void> {
  const fake = await startFakeService(parseCliArgs(process.argv.slice(2)));
  const shutdown = () => {
    fake.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  process.stdout.write(`${JSON.stringify({ url: fake.url, chatKey: fake.chatKey, axoKey: fake.axoKey })}\n`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`fake service: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
