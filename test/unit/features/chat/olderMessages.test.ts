import * as assert from 'node:assert/strict';
import { ConnectedPages, type Page } from '../../../../src/features/chat/connectedPages';
import {
  HeldOlderMessages,
  NEWEST_CHARS,
  NEWEST_MESSAGES,
  OLDER_PART_CHARS,
  newestStart,
  olderParts,
} from '../../../../src/features/chat/olderMessages';
import type { ChatStateView, HostToWebview, MessageView } from '../../../../src/protocol/chatProtocol';
import { fakeTimers } from '../../../support/fakeTimers';
import { assertGrowth } from '../../../support/growth';
import { routerOf } from '../../../support/routerOf';

const message = (i: number, length = 40): MessageView => ({
  id: `m${i}`,
  role: i % 2 ? 'assistant' : 'user',
  content: `${i} `.padEnd(length, 'x'),
  createdAt: i,
});

const stateOf = (messages: MessageView[]): ChatStateView =>
  ({ conversationId: 'c_1', title: 'T', messages }) as unknown as ChatStateView;

/**
 * A state as pageData makes it with a holder: the newest messages, the rest held (their views made when first taken).
 * Counts how many times the held views were made.
 */
let made = 0;
function split(held: HeldOlderMessages, state: ChatStateView): ChatStateView {
  const cut = newestStart(state.messages);
  if (cut === 0) {
    return state;
  }
  const older = () => {
    made++;
    return state.messages.slice(0, cut);
  };
  return { ...state, messages: state.messages.slice(cut), older: held.hold(cut, older) };
}

describe("chat: a long conversation's older messages are sent apart (src/features/chat/olderMessages)", () => {
  it('sends a short conversation whole', () => {
    const held = new HeldOlderMessages();
    const state = stateOf(Array.from({ length: NEWEST_MESSAGES }, (_, i) => message(i)));
    assert.equal(split(held, state), state);
    assert.equal(split(held, stateOf([])).older, undefined);
  });

  it('sends the newest messages, and holds the rest in order under a key of their own', () => {
    const held = new HeldOlderMessages();
    const all = Array.from({ length: 5_000 }, (_, i) => message(i));
    const first = split(held, stateOf(all));
    assert.equal(first.messages.length, NEWEST_MESSAGES);
    assert.deepEqual(first.older, { count: 5_000 - NEWEST_MESSAGES, key: first.older?.key });
    const older = held.take(first.older?.key ?? -1) ?? [];
    assert.deepEqual([...older, ...first.messages], all, 'every message once, in order');
    const second = split(held, stateOf(all));
    assert.notEqual(second.older?.key, first.older?.key, 'each state its own key');
    assert.equal(held.take(first.older?.key ?? -1), older, 'asked again (another page), still held');
    const before = made;
    const third = split(held, stateOf(all));
    assert.equal(made, before, 'the views of the older messages are made only when a page asks for them');
    held.take(third.older?.key ?? -1);
    held.take(third.older?.key ?? -1);
    assert.equal(made, before + 1, 'and once, however many pages ask');
  });

  it('sends fewer when the newest are long, and always the last message, however long', () => {
    const held = new HeldOlderMessages();
    const long = Array.from({ length: 10 }, (_, i) => message(i, NEWEST_CHARS / 2 + 1));
    const state = split(held, stateOf(long));
    assert.deepEqual(
      state.messages.map((m) => m.id),
      ['m9'],
    );
    const huge = [message(0), message(1), message(2, 5 * NEWEST_CHARS)];
    assert.deepEqual(
      split(held, stateOf(huge)).messages.map((m) => m.id),
      ['m2'],
    );
  });

  it('holds the last four states; a page asking for an older one is drawn again', async () => {
    const held = new HeldOlderMessages();
    const all = Array.from({ length: 100 }, (_, i) => message(i));
    const keys = Array.from({ length: 5 }, () => split(held, stateOf(all)).older?.key ?? -1);
    assert.equal(held.take(keys[0]), undefined);
    assert.ok(keys.slice(1).every((key) => held.take(key)?.length === 60));

    const router = routerOf(
      {
        drawPage: async () => [{ type: 'chat/state', state: stateOf([]) }],
        olderMessages: (key: number) => held.take(key),
      },
      new ConnectedPages(fakeTimers()),
    );
    const got: HostToWebview[] = [];
    const page: Page = { post: (m) => void got.push(m) };
    await router.onMessage(page, { type: 'chat/older', key: keys[4] });
    assert.deepEqual(got, [{ type: 'chat/older', key: keys[4], messages: all.slice(0, 60), left: 0 }]);
    got.length = 0;
    await router.onMessage(page, { type: 'chat/older', key: keys[0] });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      got.map((m) => m.type),
      ['chat/state'],
      'drawn again: its new state asks anew',
    );
  });

  it('sends the older messages in parts of bounded text, the newest first, each saying how many are left', async () => {
    // 200 messages of 10 KB (2 MB), one of 600 KB alone in its part, two empty ones.
    const all = Array.from({ length: 200 }, (_, i) =>
      message(i, i === 77 ? 600 * 1024 : i === 3 || i === 150 ? 0 : 10 * 1024),
    );
    const parts = olderParts(all);
    assert.ok(parts.length >= 9, `${parts.length} parts`);
    assert.deepEqual(
      parts
        .slice()
        .reverse()
        .flatMap((p) => p.messages),
      all,
      'every message once, in order',
    );
    let left = all.length;
    for (const part of parts) {
      assert.equal(part.left, left - part.messages.length, 'left: the messages before this part');
      left = part.left;
      const chars = part.messages.reduce((sum, m) => sum + m.content.length, 0);
      assert.ok(part.messages.length > 0);
      assert.ok(chars <= OLDER_PART_CHARS || part.messages.length === 1, `a part of ${chars} characters`);
    }
    assert.deepEqual(
      parts.find((p) => p.messages.some((m) => m.id === 'm77'))?.messages.map((m) => m.id),
      ['m77'],
    );
    assert.equal(left, 0);
    assert.deepEqual(olderParts([]), []);

    // Through the router: the parts go to the page that asked, in that order.
    const held = new HeldOlderMessages();
    const key = split(held, stateOf([...all, ...Array.from({ length: 40 }, (_, i) => message(300 + i))])).older?.key;
    const router = routerOf(
      { drawPage: async () => [], olderMessages: (k: number) => held.take(k) },
      new ConnectedPages(fakeTimers()),
    );
    const got: HostToWebview[] = [];
    await router.onMessage({ post: (m) => void got.push(m) }, { type: 'chat/older', key: key ?? -1 });
    assert.deepEqual(
      got,
      parts.map((part) => ({ type: 'chat/older', key, ...part })),
    );
  });

  it('cuts the older messages into parts in linear time', () => {
    assertGrowth(
      'olderParts',
      (n) => Array.from({ length: n }, (_, i) => message(i, i % 7 === 0 ? 50_000 : 200)),
      (older) => olderParts(older),
      { n: 20_000 },
    );
  });

  it('splits in linear time, however many messages and however long the newest', () => {
    // Newest messages just under the character bound each, so the loop reads every one it may send.
    const make = (n: number) => stateOf(Array.from({ length: n }, (_, i) => message(i, i % 2 ? 4_000 : 10)));
    assertGrowth(
      'split',
      make,
      (state) => {
        const held = new HeldOlderMessages();
        for (let i = 0; i < 20; i++) {
          held.take(split(held, state).older?.key ?? -1);
        }
      },
      { n: 40_000 },
    );
  });
});
