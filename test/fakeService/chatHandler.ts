import { PIECE_BREAK } from './agentScript';
import { chatReply, type ChatMessage } from './chatContent';
import type { RequestContext } from './context';
import { isFraming, streamReply } from './sseStream';

/** Chat model identifiers `/v1/alpha` accepts. */
export const CHAT_MODELS: readonly string[] = ['alpha'];

/**
 * Non-streaming reply shapes selectable by `X-Fake-Shape` or the `shape:NAME` fault. `sse` streams anyway
 * (`text/event-stream`, framed as the request's framing says), as some servers answer whatever was asked.
 */
export const CHAT_SHAPES: readonly string[] = [
  'content',
  'choices',
  'reply',
  'text',
  'output',
  'plain',
  'sse',
  'anthropic',
  'responses',
  'gemini',
  'message',
  'hf',
  'ollama',
];

interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks a chat request body; returns the request or the message of a 400. */
export function validateChatBody(body: unknown): ChatRequest | string {
  if (!isRecord(body)) {
    return 'Request body must be a JSON object';
  }
  if (typeof body.model !== 'string') {
    return "'model' must be a string";
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return "'messages' must be a non-empty array";
  }
  for (const [i, m] of body.messages.entries()) {
    if (!isRecord(m) || typeof m.role !== 'string' || typeof m.content !== 'string') {
      return `'messages[${i}]' must be an object with string 'role' and 'content'`;
    }
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean') {
    return "'stream' must be a boolean";
  }
  return { model: body.model, messages: body.messages as ChatMessage[], stream: body.stream === true };
}

/** Answers `POST /v1/alpha` (key and method already checked). */
export async function handleChat(ctx: RequestContext): Promise<void> {
  if (ctx.body.kind !== 'json') {
    ctx.sendError(400, 'Request body must be valid JSON', 'invalid_request');
    return;
  }
  const request = validateChatBody(ctx.body.value);
  if (typeof request === 'string') {
    ctx.sendError(400, request, 'invalid_request');
    return;
  }
  if (!CHAT_MODELS.includes(request.model)) {
    ctx.sendError(404, `Model '${request.model}' not found`, 'model_not_found');
    return;
  }
  const pieces = chatReply(request.messages);
  // Only a stream honours the scripted agent's cuts.
  const reply = pieces.split(PIECE_BREAK).join('');
  const usage = reportedUsage(request.messages, reply);
  const shape = ctx.shapes.find((s) => CHAT_SHAPES.includes(s));
  if (request.stream || shape === 'sse') {
    await streamReply(ctx, pieces, isFraming(ctx.framing) ? ctx.framing : 'standard', usage);
    return;
  }
  if (shape === 'plain') {
    await ctx.sendBody('text/plain; charset=utf-8', reply);
    return;
  }
  const json = chatJson(ctx.record.id, reply, shape);
  await ctx.sendBody('application/json', JSON.stringify(usage && !Array.isArray(json) ? { ...json, usage } : json));
}

/**
 * The usage the fake reports when the last prompt asks for it (the spec defines none): `#usage` in the
 * `prompt_tokens`/`completion_tokens` form, `#usage:io` in the `input_tokens`/`output_tokens` one. The counts are
 * the request's and the reply's characters, so a test can tell a reported figure from an estimate.
 */
export function reportedUsage(messages: readonly ChatMessage[], reply: string): Record<string, unknown> | undefined {
  const last = messages.at(-1)?.content ?? '';
  const form = /#usage(:io)?\b/.exec(last);
  if (!form) {
    return undefined;
  }
  const input = messages.reduce((sum, m) => sum + m.content.length, 0);
  return form[1]
    ? { input_tokens: input, output_tokens: reply.length }
    : { prompt_tokens: input, completion_tokens: reply.length, total_tokens: input + reply.length };
}

function chatJson(id: number, content: string, shape: string | undefined): Record<string, unknown> | unknown[] {
  const message = { role: 'assistant', content };
  switch (shape) {
    case 'content':
      return { content };
    case 'choices':
      return { id: `fake-${id}`, choices: [{ index: 0, message, finish_reason: 'stop' }] };
    case 'reply':
      return { reply: content };
    case 'text':
      return { text: content };
    case 'output':
      return { output: content };
    case 'anthropic':
      return { id: `msg_${id}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: content }] };
    case 'responses':
      return { id: `resp_${id}`, object: 'response', output_text: content };
    case 'gemini':
      return { candidates: [{ content: { role: 'model', parts: [{ text: content }] }, finishReason: 'STOP' }] };
    case 'message':
      return { id: `fake-${id}`, message: content };
    case 'hf':
      return [{ generated_text: content }];
    case 'ollama':
      return { model: 'alpha', created_at: '2026-01-01T00:00:00Z', response: content, done: true };
    default:
      return { id: `fake-${id}`, model: 'alpha', message };
  }
}
