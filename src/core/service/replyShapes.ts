/**
 * Reply text in the forms other chat servers write, beside the spec's `{content: string}`: a server that speaks
 * one of them streams and answers readably instead of skipping every event. Free of `vscode`.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text parts of a content array (`[{type: 'text', text}]`, or `parts: [{text}]`), joined; else undefined. */
export function partsText(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) {
    return undefined;
  }
  const texts = parts
    .filter(isObj)
    .filter((part) => part.type === undefined || part.type === 'text' || part.type === 'output_text')
    .map((part) => part.text)
    .filter((text): text is string => typeof text === 'string');
  return texts.length > 0 ? texts.join('') : undefined;
}

/**
 * The text of one stream event without a string `content`, in the forms of other servers: OpenAI's
 * `choices[0].delta.content` (or `choices[0].text`), Anthropic's `delta.text`, Hugging Face TGI's `token.text`
 * (not a special token), Ollama's `message.content` or `response`, Gemini's `candidates[0].content.parts`, or a
 * bare `text`. Undefined when none holds a string.
 */
export function chunkText(value: unknown): string | undefined {
  if (!isObj(value)) {
    return undefined;
  }
  const choice = Array.isArray(value.choices) && isObj(value.choices[0]) ? value.choices[0] : undefined;
  if (choice) {
    if (isObj(choice.delta) && typeof choice.delta.content === 'string') {
      return choice.delta.content;
    }
    if (typeof choice.text === 'string') {
      return choice.text;
    }
  }
  if (isObj(value.delta) && typeof value.delta.text === 'string') {
    return value.delta.text;
  }
  if (isObj(value.token) && typeof value.token.text === 'string' && value.token.special !== true) {
    return value.token.text;
  }
  if (isObj(value.message) && typeof value.message.content === 'string') {
    return value.message.content;
  }
  const candidate = Array.isArray(value.candidates) && isObj(value.candidates[0]) ? value.candidates[0] : undefined;
  if (candidate && isObj(candidate.content)) {
    const text = partsText(candidate.content.parts);
    if (text !== undefined) {
      return text;
    }
  }
  for (const name of ['response', 'text']) {
    if (typeof value[name] === 'string') {
      return value[name];
    }
  }
  return undefined;
}

/**
 * Whether a stream event is another server's own end of the reply: Anthropic's `message_stop`, Ollama's
 * `done: true`, an OpenAI choice's `finish_reason`, a Gemini candidate's `finishReason`. Those servers send no
 * `[DONE]`: a body that ends cleanly after such an event is a whole reply, not one cut off.
 */
export function isEndEvent(value: unknown): boolean {
  if (!isObj(value)) {
    return false;
  }
  if (value.type === 'message_stop' || value.done === true) {
    return true;
  }
  const choice = Array.isArray(value.choices) && isObj(value.choices[0]) ? value.choices[0] : undefined;
  if (choice && typeof choice.finish_reason === 'string') {
    return true;
  }
  const candidate = Array.isArray(value.candidates) && isObj(value.candidates[0]) ? value.candidates[0] : undefined;
  return candidate !== undefined && typeof candidate.finishReason === 'string';
}
