import * as assert from 'node:assert/strict';
import { ConnectedPages, DELTA_INTERVAL_MS, type Page } from '../../../../src/features/chat/connectedPages';
import type { HostToWebview } from '../../../../src/protocol/chatProtocol';
import { fakeTimers } from '../../../support/fakeTimers';
import { routerOf } from '../../../support/routerOf';

/** A page that keeps the types of what it was sent, in order. */
function recordingPage(): Page & { got: string[] } {
  const got: string[] = [];
  return { got, post: (m: HostToWebview) => void got.push(m.type === 'chat/delta' ? `delta ${m.text}` : m.type) };
}

const state = { type: 'chat/state' } as HostToWebview;
const focus: HostToWebview = { type: 'composer/focus' };

/** A draw that settles when the test says, as the state is read after the conversation has loaded. */
function pendingDraw(): { draw: () => Promise<HostToWebview[]>; finish(): void } {
  let finish: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (finish = resolve));
  return { draw: async () => (await ready, [state]), finish: () => finish() };
}

describe('chat: the pages connected (src/features/chat/connectedPages)', () => {
  it('sends what is broadcast only to pages already drawn, after their state', async () => {
    const pages = new ConnectedPages(fakeTimers());
    const drawn = recordingPage();
    await pages.connect(drawn, async () => [state]);
    const late = recordingPage();
    const drawing = pendingDraw();
    const connected = pages.connect(late, drawing.draw);
    pages.broadcast(focus);
    drawing.finish();
    await connected;
    pages.broadcast({ type: 'history/scope', scope: 'all' });
    assert.deepEqual(drawn.got, ['chat/state', 'composer/focus', 'history/scope']);
    assert.deepEqual(late.got, ['chat/state', 'history/scope'], 'its state already holds what went before it');
  });

  it('sends nothing to a page that closed while it was drawn, nor after it closed', async () => {
    const pages = new ConnectedPages(fakeTimers());
    const page = recordingPage();
    const drawing = pendingDraw();
    const connected = pages.connect(page, drawing.draw);
    pages.disconnect(page);
    drawing.finish();
    await connected;
    pages.broadcast(focus);
    assert.deepEqual(page.got, []);
  });

  it('joins a reply’s deltas and sends those held before any other message', async () => {
    const timers = fakeTimers();
    const pages = new ConnectedPages(timers);
    const page = recordingPage();
    await pages.connect(page, async () => [state]);
    pages.delta(1, 'a');
    pages.delta(1, 'b');
    pages.delta(1, 'c');
    assert.deepEqual(page.got, ['chat/state', 'delta a'], 'the first delta at once, the next ones held');
    pages.broadcast(focus);
    assert.deepEqual(page.got, ['chat/state', 'delta a', 'delta bc', 'composer/focus']);
    pages.delta(1, 'd');
    timers.advance(DELTA_INTERVAL_MS);
    assert.deepEqual(page.got.slice(4), ['delta d']);
    pages.dispose();
    assert.equal(timers.pending(), 0, 'no timer is left running');
  });

  it('sends the deltas held while a page was drawn to the pages drawn before it only (its state has their text)', async () => {
    const pages = new ConnectedPages(fakeTimers());
    const drawn = recordingPage();
    await pages.connect(drawn, async () => [state]);
    pages.delta(1, 'a');
    const late = recordingPage();
    const drawing = pendingDraw();
    const connected = pages.connect(late, drawing.draw);
    pages.delta(1, 'b');
    drawing.finish();
    await connected;
    pages.delta(1, 'c');
    assert.deepEqual(drawn.got, ['chat/state', 'delta a', 'delta b']);
    assert.deepEqual(late.got, ['chat/state']);
    pages.broadcast(focus);
    assert.deepEqual(late.got, ['chat/state', 'delta c', 'composer/focus'], 'what came after its state, in order');
  });

  it('are connected and disconnected by the router, which draws a page from the controller', async () => {
    const pages = new ConnectedPages(fakeTimers());
    let draws = 0;
    const router = routerOf({ drawPage: async () => (draws++, [state]) }, pages);
    const page = recordingPage();
    router.connectPage(page);
    await new Promise((resolve) => setImmediate(resolve));
    pages.broadcast(focus);
    router.disconnectPage(page);
    pages.broadcast(focus);
    assert.equal(draws, 1);
    assert.deepEqual(page.got, ['chat/state', 'composer/focus']);
  });
});
