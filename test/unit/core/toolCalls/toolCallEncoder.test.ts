import * as assert from 'node:assert/strict';
import { formatCall } from '../../../../src/core/toolCalls/callForm';
import { CallParser } from '../../../../src/core/toolCalls/callParser';
import { encodeTools, typeText } from '../../../../src/core/toolCalls/toolEncoder';
import { schemaNode, type SchemaNode, type ToolSpec } from '../../../../src/core/toolCalls/toolSpec';
import { estimateTokens } from '../../../../src/core/service/tokenEstimate';
import { AGENT_MODE_TOOLS } from '../../../support/agentModeTools';

/** Arguments that fit a schema: every property, each of its type (the first enum option), strings with hazards. */
function sample(node: SchemaNode | undefined, depth = 0): unknown {
  if (!node) {
    return 'x';
  }
  if (Array.isArray(node.enum) && node.enum.length) {
    return node.enum[0];
  }
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives?.length) {
    return sample(alternatives[0], depth);
  }
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'string':
      return 'a "quoted" {brace}\n```tool_call\n\\ end';
    case 'number':
    case 'integer':
      return 3;
    case 'boolean':
      return true;
    case 'array':
      return depth > 4 ? [] : [sample(schemaNode(node.items), depth + 1)];
    default: {
      const properties = (schemaNode(node.properties) ?? {}) as Record<string, SchemaNode>;
      return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, sample(v, depth + 1)]));
    }
  }
}

describe('tool calls: the encoder', () => {
  it('writes every Agent-mode tool call in a form the parser reads back unchanged', () => {
    for (const tool of AGENT_MODE_TOOLS) {
      const input = sample(schemaNode(tool.inputSchema));
      const parser = new CallParser(AGENT_MODE_TOOLS);
      const events = [...parser.feed(`Calling ${tool.name}.\n${formatCall(tool.name, input)}\nDone.`), ...parser.end()];
      const calls = events.filter((event) => event.type === 'call');
      assert.deepEqual(
        calls.map((event) => event.type === 'call' && event.call),
        [{ name: tool.name, input }],
        `${tool.name}: ${JSON.stringify(events.filter((e) => e.type === 'malformed'))}`,
      );
    }
  });

  it('describes each tool by a signature line in the compact form and by its schema in the full one', () => {
    const compact = encodeTools(AGENT_MODE_TOOLS, 'compact');
    const full = encodeTools(AGENT_MODE_TOOLS, 'full');
    assert.match(compact, /^create_file\(filePath: string, content: string\)$/m);
    assert.match(compact, /^read_file\(filePath: string, startLine: number, endLine: number\)$/m);
    assert.match(compact, /^ {2}- filePath: Absolute path of the file to be created\.$/m);
    for (const tool of AGENT_MODE_TOOLS) {
      assert.ok(compact.includes(`\n${tool.name}(`), tool.name);
      assert.ok(full.includes(JSON.stringify(tool.inputSchema ?? {})), tool.name);
    }
    assert.match(compact, /```tool_call\n\{"name": "TOOL_NAME"/);
    assert.doesNotMatch(compact, /must call at least one tool/);
    assert.match(encodeTools(AGENT_MODE_TOOLS, 'compact', 'required'), /You must call at least one tool/);
  });

  it('costs well under half of the full form on the tools VS Code sends in Agent mode', () => {
    const compact = estimateTokens(encodeTools(AGENT_MODE_TOOLS, 'compact'));
    const full = estimateTokens(encodeTools(AGENT_MODE_TOOLS, 'full'));
    assert.equal(AGENT_MODE_TOOLS.length, 40);
    assert.ok(compact < full * 0.45, `compact ${compact} tokens, full ${full}`);
  });

  it('spells types as TypeScript does', () => {
    const cases: [unknown, string][] = [
      [{ type: 'string' }, 'string'],
      [{ type: ['string', 'null'] }, 'string|null'],
      [{ enum: ['a', 'b'] }, '"a"|"b"'],
      [{ type: 'array', items: { type: 'integer' } }, 'integer[]'],
      [{ type: 'array', items: { enum: ['x', 'y'] } }, '("x"|"y")[]'],
      [
        { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] },
        '{a: string, b?: number}',
      ],
      [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, 'string|number'],
      [undefined, 'any'],
    ];
    for (const [schema, text] of cases) {
      assert.equal(typeText(schema, 1), text);
    }
  });

  it('takes a tool without a schema as one without arguments', () => {
    const tools: ToolSpec[] = [{ name: 'now', description: 'The time.' }];
    assert.match(encodeTools(tools), /^now\(\)$/m);
    const parser = new CallParser(tools);
    const events = [...parser.feed('```tool_call\n{"name":"now"}\n```'), ...parser.end()];
    assert.deepEqual(events, [{ type: 'call', call: { name: 'now', input: {} }, raw: '{"name":"now"}' }]);
  });
});
