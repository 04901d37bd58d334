import { schemaNode, type CallProblem, type SchemaNode, type ToolCall, type ToolSpec } from './toolSpec';

/** How deep the check follows a schema (tool schemas are shallow; this bounds a hostile one). */
const MAX_DEPTH = 12;
/** How many problems one message names. */
const MAX_PROBLEMS = 3;

type Checked = { call: ToolCall } | { problem: CallProblem };

/**
 * Reads one call object as the model wrote it (JSON text) and checks it against the tools. Accepted slips: the
 * arguments under `parameters`, `input` or `args`; arguments written as a JSON string of an object; the name under
 * `tool`, or both inside an OpenAI-style `function` object; a tool name in another case when only one tool has it;
 * no arguments at all (then `{}`). Everything else is refused with a sentence saying what was wrong.
 */
export function checkCall(json: string, tools: readonly ToolSpec[]): Checked {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return problem('json', `The call is not valid JSON (${reason}).`);
  }
  let record = asRecord(value);
  const fn = asRecord(record?.function);
  if (fn && typeof fn.name === 'string') {
    record = fn;
  }
  const name = record?.name ?? record?.tool;
  if (!record || typeof name !== 'string') {
    return problem('shape', 'The call must be one JSON object with a string "name" and an object "arguments".');
  }
  const tool = findTool(name, tools);
  if (!tool) {
    const known = tools.map((t) => t.name);
    const list = known.length > 12 ? `${known.slice(0, 12).join(', ')}, …` : known.join(', ');
    return problem('unknownTool', `There is no tool named "${clip(name)}". The tools are: ${list}.`);
  }
  const args = readArguments(record.arguments ?? record.parameters ?? record.input ?? record.args);
  if (!args) {
    return problem('arguments', `The "arguments" of ${tool.name} must be a JSON object.`);
  }
  const problems: string[] = [];
  checkValue(args, schemaNode(tool.inputSchema) ?? {}, 'arguments', problems, 0);
  if (problems.length) {
    return problem('arguments', `The arguments of ${tool.name} do not fit its parameters: ${problems.join('; ')}.`);
  }
  return { call: { name: tool.name, input: args } };
}

function problem(kind: CallProblem['kind'], detail: string): Checked {
  return { problem: { kind, detail } };
}

function findTool(name: string, tools: readonly ToolSpec[]): ToolSpec | undefined {
  const exact = tools.find((t) => t.name === name);
  if (exact) {
    return exact;
  }
  const folded = tools.filter((t) => t.name.toLowerCase() === name.toLowerCase());
  return folded.length === 1 ? folded[0] : undefined;
}

function readArguments(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) {
    return {};
  }
  if (typeof value === 'string') {
    try {
      return asRecord(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return asRecord(value);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Checks `value` against the schema's types, required fields, enums and items; appends what breaks them. */
function checkValue(value: unknown, schema: SchemaNode, path: string, problems: string[], depth: number): void {
  if (depth > MAX_DEPTH || problems.length >= MAX_PROBLEMS) {
    return;
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length) {
    const fits = alternatives.some((alt) => {
      const found: string[] = [];
      checkValue(value, schemaNode(alt) ?? {}, path, found, depth + 1);
      return found.length === 0;
    });
    if (!fits) {
      problems.push(`${path} fits none of its allowed forms`);
    }
    return;
  }
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  if (types.length && !types.some((type) => hasType(value, type))) {
    problems.push(`${path} must be ${types.map(article).join(' or ')}, not ${describe(value)}`);
    return;
  }
  if (Array.isArray(schema.enum) && schema.enum.length && !schema.enum.some((option) => option === value)) {
    problems.push(`${path} must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`);
    return;
  }
  const record = asRecord(value);
  if (record) {
    checkObject(record, schema, path, problems, depth);
  } else if (Array.isArray(value) && schemaNode(schema.items)) {
    for (let i = 0; i < value.length && problems.length < MAX_PROBLEMS; i++) {
      checkValue(value[i], schema.items as SchemaNode, `${path}[${i}]`, problems, depth + 1);
    }
  }
}

function checkObject(
  record: Record<string, unknown>,
  schema: SchemaNode,
  path: string,
  problems: string[],
  depth: number,
): void {
  const properties = asRecord(schema.properties) ?? {};
  for (const key of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof key === 'string' && record[key] === undefined && problems.length < MAX_PROBLEMS) {
      problems.push(`${path}.${key} is required`);
    }
  }
  for (const [key, item] of Object.entries(record)) {
    const property = schemaNode(properties[key]);
    if (property) {
      checkValue(item, property, `${path}.${key}`, problems, depth + 1);
    } else if (schema.additionalProperties === false && problems.length < MAX_PROBLEMS) {
      problems.push(`${path}.${clip(key)} is not a parameter`);
    }
  }
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return asRecord(value) !== undefined;
    case 'null':
      return value === null;
    default:
      return true;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'an array';
  }
  return article(typeof value);
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
