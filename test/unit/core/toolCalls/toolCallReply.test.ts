import * as assert from 'node:assert/strict';
import type { ChatMessage } from '../../../../src/core/service/alphaClient';
import { runToolReply, type ReplyStream } from '../../../../src/core/toolCalls/toolReply';
import type { ToolCall, ToolSpec } from '../../../../src/core/toolCalls/toolSpec';
import { CREATE_FILE } from '../../../support/toolSpecs';

const TOOLS: ToolSpec[] = [CREATE_FILE];
const GOOD = '```tool_call\n{"name":"create_file","arguments":{"filePath":"/a","content":"hi"}}\n```\n';
const BAD = '```tool_call\n{"name":"create_file","arguments":{"filePath":"/a"}}\n```\n';

/** A service that answers each request with the next scripted reply, a few characters a chunk. */
function scripted(replies: string[]): { stream: ReplyStream; requests: ChatMessage[][]; aborted: () => number } {
  const requests: ChatMessage[][] = [];
  let aborted = 0;
  const stream: ReplyStream = async function* (messages, signal) {
    requests.push(messages);
    const reply = replies[requests.length - 1] ?? '';
    signal.addEventListener('abort', () => aborted++, { once: true });
    for (let i = 0; i < reply.length; i += 3) {
      await Promise.resolve();
      if (signal.aborted) {
        return;
      }
      yield reply.slice(i, i + 3);
    }
  };
  return { stream, requests, aborted: () => aborted };
}

/** Collects what a reply reports. */
class Told {
  written = '';
  calls: ToolCall[] = [];
  order: string[] = [];
  text(t: string): void {
    this.written += t;
    this.order.push('text');
  }
  call(c: ToolCall): void {
    this.calls.push(c);
    this.order.push(`call:${c.name}`);
  }
}

function sink(): Told {
  return new Told();
}

const ASK: ChatMessage[] = [{ role: 'user', content: 'Create /a' }];

describe('tool calls: a reply with tools', () => {
  it('reports text and calls in order, with one request when all is well', async () => {
    const service = scripted([`Sure.\n${GOOD}Done.`]);
    const told = sink();
    const outcome = await runToolReply(service.stream, ASK, TOOLS, told, new AbortController().signal);
    assert.deepEqual(outcome, { retried: false });
    assert.equal(told.written, 'Sure.\nDone.');
    assert.deepEqual(told.calls, [{ name: 'create_file', input: { filePath: '/a', content: 'hi' } }]);
    assert.deepEqual(
      told.order.filter((what, i) => what !== told.order[i - 1]),
      ['text', 'call:create_file', 'text'],
    );
    assert.equal(service.requests.length, 1);
  });

  it('asks once more, saying what was wrong, when a call cannot be read, and the reply stops at the bad call', async () => {
    const service = scripted([`Sure.\n${BAD}This text is never read.`, GOOD]);
    const told = sink();
    const outcome = await runToolReply(service.stream, ASK, TOOLS, told, new AbortController().signal);
    assert.deepEqual(outcome, { retried: true, failed: undefined });
    assert.equal(told.written, 'Sure.\n');
    assert.deepEqual(told.calls, [{ name: 'create_file', input: { filePath: '/a', content: 'hi' } }]);
    assert.equal(service.requests.length, 2);
    const retry = service.requests[1];
    assert.deepEqual(retry.slice(0, 1), ASK);
    assert.equal(retry[1].role, 'assistant');
    assert.equal(retry[1].content, `Sure.\n${BAD.trimEnd()}`);
    assert.equal(retry[2].role, 'user');
    assert.match(retry[2].content, /could not be read: .*arguments\.content is required/);
    assert.ok(service.aborted() >= 1, 'the first reply was stopped');
  });

  it('shows the call as written with one sentence when the second try fails too', async () => {
    const service = scripted([BAD, `${BAD}After.`]);
    const told = sink();
    const outcome = await runToolReply(service.stream, ASK, TOOLS, told, new AbortController().signal);
    assert.equal(outcome.retried, true);
    assert.equal(outcome.failed?.kind, 'arguments');
    assert.deepEqual(told.calls, []);
    assert.ok(told.written.startsWith(BAD.trimEnd()), told.written);
    assert.match(told.written, /tool call above could not be read, so it was not run: .*content is required/);
    assert.ok(told.written.endsWith('After.'));
    assert.equal(service.requests.length, 2);
  });

  it('ends at once when cancelled while a call is held, telling nothing of it', async () => {
    const controller = new AbortController();
    let release: () => void = () => undefined;
    let signalSeen: AbortSignal | undefined;
    const stream: ReplyStream = async function* (_messages, signal) {
      signalSeen = signal;
      yield 'Working.\n```tool_call\n{"name":"create_file","argu';
      await new Promise<void>((resolve) => {
        release = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      yield 'ments":{"filePath":"/a","content":"hi"}}\n```\n';
    };
    const told = sink();
    const done = runToolReply(stream, ASK, TOOLS, told, controller.signal);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(told.written, 'Working.\n');
    controller.abort();
    const outcome = await done;
    release();
    assert.deepEqual(outcome, { retried: false });
    assert.deepEqual(told.calls, []);
    assert.equal(told.written, 'Working.\n');
    assert.equal(signalSeen?.aborted, true, 'the request was aborted');
  });

  it('asks no second time when cancelled during the first', async () => {
    const controller = new AbortController();
    const service = scripted([BAD, GOOD]);
    const told = sink();
    controller.abort();
    await runToolReply(service.stream, ASK, TOOLS, told, controller.signal);
    assert.equal(service.requests.length, 1);
    assert.deepEqual(told.calls, []);
  });
});
