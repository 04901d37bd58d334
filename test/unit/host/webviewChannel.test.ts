import * as assert from 'node:assert/strict';
import type { Logger } from '../../../src/core/logger';
import { WebviewChannel, type ChannelOptions, type WebviewPort } from '../../../src/host/webviewChannel';
import { bare, isText, type Validator } from '../../../src/protocol/validate';

const tick = () => new Promise((resolve) => setImmediate(resolve));

type In = { type: 'ready' } | { type: 'say'; text: string } | { type: 'boom' };
type Out = { type: 'state' } | { type: 'focus' } | { type: 'delta'; text: string };

const VALIDATORS: Record<In['type'], Validator> = {
  ready: bare,
  say: (m) => isText(m.text, 10),
  boom: bare,
};

/** A page that records what it was posted and can send messages, and a channel to it. */
function setUp(options: Partial<ChannelOptions<In, Out>> = {}, failPost = false) {
  let listener: ((message: unknown) => void) | undefined;
  const posted: Out[] = [];
  const logged: string[] = [];
  const events: string[] = [];
  const port: WebviewPort<Out> = {
    postMessage: async (message) => {
      if (failPost) {
        throw new Error('the webview is gone');
      }
      posted.push(message);
      return true;
    },
    onDidReceiveMessage: (l) => {
      listener = l;
      return { dispose: () => (listener = undefined) };
    },
  };
  const log: Logger = {
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => void logged.push(m),
    error: (m) => void logged.push(m),
  };
  const channel = new WebviewChannel<In, Out>(port, {
    name: 'Test view',
    validators: VALIDATORS,
    readyType: 'ready',
    replay: (held) => held.filter((m) => m.type === 'focus'),
    onReady: () => {
      events.push('ready');
      channel.post({ type: 'state' });
    },
    onMessage: (message) => {
      if (message.type === 'boom') {
        throw new Error('it broke');
      }
      events.push(`message ${JSON.stringify(message)}`);
    },
    onFailure: (error) => void events.push(`failure ${(error as Error).message}`),
    log,
    ...options,
  });
  /** A message as the page sends it: through the webview's event. */
  const send = async (raw: unknown) => {
    listener?.(raw);
    await tick();
  };
  return { channel, posted, logged, events, send, listening: () => listener !== undefined };
}

describe('WebviewChannel: the one channel between the host and a page', () => {
  it('holds what is posted until the page is ready, then sends the state first and replays what the view keeps', async () => {
    const { channel, posted, events } = setUp();
    channel.post({ type: 'delta', text: 'a' });
    channel.post({ type: 'focus' });
    assert.equal(channel.isReady, false);
    await tick();
    assert.deepEqual(posted, [], 'nothing reaches a page that does not listen yet');
    await channel.receive({ type: 'ready' });
    await tick();
    assert.equal(channel.isReady, true);
    assert.deepEqual(events, ['ready']);
    assert.deepEqual(posted, [{ type: 'state' }, { type: 'focus' }], 'the delta is part of the state');
    channel.post({ type: 'delta', text: 'b' });
    await tick();
    assert.deepEqual(posted.at(-1), { type: 'delta', text: 'b' }, 'a ready page gets messages at once');
  });

  it('holds again when the page is loaded again, and the page gets the state again when it says ready', async () => {
    const { channel, posted } = setUp();
    await channel.receive({ type: 'ready' });
    channel.reload([{ type: 'focus' }]);
    channel.post({ type: 'delta', text: 'lost' });
    await tick();
    assert.deepEqual(posted, [{ type: 'state' }]);
    await channel.receive({ type: 'ready' });
    await tick();
    assert.deepEqual(posted, [{ type: 'state' }, { type: 'state' }, { type: 'focus' }]);
  });

  it('checks every message against the view’s table, drops what fails with a log line, hands on the rest', async () => {
    const { send, events, logged } = setUp();
    for (const raw of [null, 'ready', [], { type: 'nope' }, { type: 'say', text: 'far too long text' }, { type: 1 }]) {
      await send(raw);
    }
    assert.deepEqual(events, []);
    assert.equal(logged.length, 6, logged.join('\n'));
    assert.ok(
      logged.every((m) => m.startsWith('Test view: dropped ')),
      logged.join('\n'),
    );
    assert.ok(!logged.some((m) => m.includes('far too long')), 'a dropped message’s content is not logged');
    await send({ type: 'say', text: 'hi' });
    assert.deepEqual(events, ['message {"type":"say","text":"hi"}']);
  });

  it('logs and reports a handler that throws; logs a post that fails', async () => {
    const { channel, events, logged } = setUp({}, true);
    await channel.receive({ type: 'boom' });
    assert.deepEqual(events, ['failure it broke']);
    assert.match(logged[0], /^Test view: boom failed: it broke/);
    await channel.receive({ type: 'ready' });
    await tick();
    assert.match(logged.at(-1) ?? '', /^Test view: could not post state: the webview is gone/);
  });

  it('stops listening and sending once disposed', async () => {
    const { channel, posted, events, listening } = setUp();
    await channel.receive({ type: 'ready' });
    channel.dispose();
    assert.equal(listening(), false);
    channel.post({ type: 'focus' });
    await channel.receive({ type: 'say', text: 'late' });
    await tick();
    assert.deepEqual(posted, [{ type: 'state' }]);
    assert.deepEqual(events, ['ready']);
  });
});
