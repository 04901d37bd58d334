import * as assert from 'node:assert/strict';
import { ChatState } from '../../../../../src/core/chat/runs/chatState';
import type { ReplySettings } from '../../../../../src/core/chat/runs/chatStateTypes';
import type { ChatTool, ToolAccess, ToolStep } from '../../../../../src/core/chat/tools/chatTool';
import { toolsMessageTokens } from '../../../../../src/core/chat/request/requestBudget';
import { chatToolsMessage } from '../../../../../src/core/chat/tools/toolLoop';
import { silentLogger } from '../../../../../src/core/logger';
import { MemoryHolder, Recorder } from '../../../../support/chatStateHarness';
import {
  FakeTool,
  ScriptedService,
  aborted,
  callBlock,
  readTool,
  type ScriptedReply,
} from '../../../../support/toolLoopHarness';

/** A chat state with tools: a toolbox that offers `tools` at every level but `none`, and records what it was asked. */
function setup(script: ScriptedReply[], settings: Partial<ReplySettings> = {}, tools: ChatTool[] = [readTool()]) {
  const holder = new MemoryHolder();
  const service = new ScriptedService(script);
  const recorder = new Recorder();
  const asked: ToolAccess[] = [];
  const toolbox = {
    tools: (access: ToolAccess) => {
      asked.push(access);
      return access === 'none' ? [] : tools;
    },
  };
  const current: ReplySettings = {
    model: 'alpha',
    stream: true,
    groundByDefault: false,
    toolCalling: true,
    toolAccess: 'read',
    ...settings,
  };
  const state = new ChatState({
    holder,
    source: service,
    settings: () => current,
    toolbox,
    listener: recorder,
    log: silentLogger,
  });
  return { holder, service, recorder, state, asked };
}

const hasToolsMessage = (messages: { role: string; content: string }[]) =>
  messages.some((m) => m.role === 'system' && m.content.startsWith('You can call tools'));

const stored = (holder: MemoryHolder) => holder.files.get(holder.conversation.id);

describe('chat tools: the chat state', () => {
  it('keeps the access set for the conversation shown, saved with it; a level not known is ignored', async () => {
    const { holder, state } = setup([{ text: 'Hi.' }], { toolAccess: 'axo' });
    assert.equal(state.toolAccess, 'axo', 'the setting, while the conversation has not chosen');
    await state.send('hello');
    await state.setToolAccess('edit');
    assert.equal(state.toolAccess, 'edit');
    assert.equal(stored(holder)?.toolAccess, 'edit');
    await state.setToolAccess('everything' as ToolAccess);
    assert.equal(state.toolAccess, 'edit');
  });

  it('sends no tools message, and asks the toolbox nothing, when the conversation allows none', async () => {
    const { service, state, asked } = setup([{ text: 'Plain.' }]);
    await state.setToolAccess('none');
    await state.send('hello');
    assert.equal(service.requests.length, 1);
    assert.ok(!hasToolsMessage(service.requests[0].messages));
    assert.deepEqual(asked, []);
    const reply = state.conversation.messages[1];
    assert.equal(reply.content, 'Plain.');
    assert.equal(reply.steps, undefined);
    assert.equal(reply.requests, undefined);
  });

  it('counts the tools message in the gauge as a part of its own; 0 when ALPHA may use nothing', async () => {
    const { state } = setup([]);
    const tools = toolsMessageTokens(chatToolsMessage([readTool()]));
    assert.ok(tools > 100, `the tools message is ≈${tools} tokens`);
    const budget = state.budget();
    assert.equal(budget.parts.tools, tools);
    const { conversation, attachments, instructions, grounding } = budget.parts;
    assert.equal(budget.usedTokens, conversation + attachments + instructions + grounding + tools);
    await state.setToolAccess('none');
    assert.equal(state.budget().parts.tools, 0);
  });

  it('sends no tools message when tool calling is off', async () => {
    const { service, state } = setup([{ text: 'Plain.' }], { toolCalling: false });
    await state.send('hello');
    assert.ok(!hasToolsMessage(service.requests[0].messages));
  });

  it('runs the calls of a reply at the access allowed, tells each step, and keeps them with the reply', async () => {
    const { holder, service, state, recorder, asked } = setup([
      { text: `Reading.\n${callBlock('read_file', { path: 'a.ts' })}` },
      { text: 'It says hello.' },
    ]);
    await state.send('what does a.ts say?');
    assert.deepEqual(asked, ['read']);
    assert.ok(hasToolsMessage(service.requests[0].messages));
    assert.deepEqual(
      recorder.events.filter((e) => e.startsWith('step')),
      ['step 1 read_file running', 'step 1 read_file done'],
    );
    const reply = stored(holder)?.messages[1];
    assert.equal(reply?.content, 'Reading.\nIt says hello.');
    assert.equal(reply?.status, 'done');
    assert.equal(reply?.requests, 2);
    assert.deepEqual(
      reply?.steps?.map((s: ToolStep) => [s.tool, s.status, s.offset, s.result]),
      [['read_file', 'done', 'Reading.\n'.length, 'a.ts: hello']],
    );
  });

  it('runs the calls again when the reply is regenerated', async () => {
    const tool = readTool();
    const round = [{ text: callBlock('read_file', { path: 'a.ts' }) }, { text: 'Hello.' }];
    const { state, service } = setup([...round, ...round], {}, [tool]);
    await state.send('what does a.ts say?');
    await state.regenerate();
    assert.equal(tool.runs.length, 2);
    assert.equal(service.requests.length, 4);
    assert.equal(state.conversation.messages[1].steps?.[0].status, 'done');
  });

  it('ends a reply torn down during a step as interrupted, the step stopped, and asks nothing more', async () => {
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const tool = new FakeTool('read_file', async (_input, context) => {
      started();
      await aborted(context.signal);
      return { status: 'done', text: 'late' };
    });
    const { holder, service, state } = setup([{ text: callBlock('read_file', { path: 'a' }) }, { text: 'x' }], {}, [
      tool,
    ]);
    const sent = state.send('read a');
    await running;
    state.dispose();
    const saved = stored(holder)?.messages[1];
    assert.equal(holder.syncSaves, 1);
    assert.equal(saved?.status, 'interrupted');
    assert.equal(saved?.steps?.[0].status, 'stopped');
    await sent;
    assert.equal(service.requests.length, 1);
  });
});
