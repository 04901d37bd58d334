import * as assert from 'node:assert/strict';
import { MAX_CALL_CHARS } from '../../../../src/core/toolCalls/callBlock';
import { CallParser } from '../../../../src/core/toolCalls/callParser';
import type { CallEvent, ToolSpec } from '../../../../src/core/toolCalls/toolSpec';
import { assertGrowth } from '../../../support/growth';
import { CREATE_FILE } from '../../../support/toolSpecs';

const TOOLS: ToolSpec[] = [
  CREATE_FILE,
  {
    name: 'read_file',
    description: 'Read a file.',
    inputSchema: {
      type: 'object',
      properties: { filePath: { type: 'string' }, startLine: { type: 'integer' }, endLine: { type: 'integer' } },
      required: ['filePath'],
    },
  },
];

/** A summary of events that ignores how text was split: adjacent text joined; calls by name and input. */
type Told = { text: string } | { call: string; input: unknown } | { malformed: string };

function summary(events: readonly CallEvent[]): Told[] {
  const told: Told[] = [];
  for (const event of events) {
    const last = told.at(-1);
    if (event.type === 'text') {
      if (last && 'text' in last) {
        last.text += event.text;
      } else {
        told.push({ text: event.text });
      }
    } else if (event.type === 'call') {
      told.push({ call: event.call.name, input: event.call.input });
    } else {
      told.push({ malformed: event.problem.kind });
    }
  }
  return told;
}

function chunked(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) {
    chunks.push(text.slice(i, i + size));
  }
  return chunks;
}

function parse(chunks: string[]): CallEvent[] {
  const parser = new CallParser(TOOLS);
  return [...chunks.flatMap((chunk) => parser.feed(chunk)), ...parser.end()];
}

/** Parses `reply` whole, then split in two at every position, then one character a chunk: all must agree. */
function parseEverySplit(reply: string): Told[] {
  const whole = summary(parse([reply]));
  for (let i = 1; i < reply.length; i++) {
    assert.deepEqual(summary(parse([reply.slice(0, i), reply.slice(i)])), whole, `split at ${i}`);
  }
  assert.deepEqual(summary(parse(Array.from(reply))), whole, 'one character a chunk');
  return whole;
}

const CALL_A = '```tool_call\n{"name": "create_file", "arguments": {"filePath": "/w/a.txt", "content": "hi"}}\n```\n';
const CALL_B = '```tool_call\n{"name": "read_file", "arguments": {"filePath": "/w/b.txt"}}\n```\n';

describe('tool calls: the streaming parser', () => {
  it('tells text and two calls in order, at every split', () => {
    const told = parseEverySplit(`I will create it.\n\n${CALL_A}Then read:\n${CALL_B}Done.`);
    assert.deepEqual(told, [
      { text: 'I will create it.\n\n' },
      { call: 'create_file', input: { filePath: '/w/a.txt', content: 'hi' } },
      { text: 'Then read:\n' },
      { call: 'read_file', input: { filePath: '/w/b.txt' } },
      { text: 'Done.' },
    ]);
  });

  it('lets text out at once and holds only a line that may still become a marker', () => {
    const parser = new CallParser(TOOLS);
    assert.deepEqual(summary(parser.feed('Hello wor')), [{ text: 'Hello wor' }]);
    assert.deepEqual(summary(parser.feed('ld\n``')), [{ text: 'ld\n' }]);
    assert.deepEqual(summary(parser.feed('`tool_ca')), []);
    assert.deepEqual(summary(parser.feed('ll\n{"name":"read_file","arguments":{"filePath":"x"}')), []);
    assert.deepEqual(summary(parser.feed('}')), [{ call: 'read_file', input: { filePath: 'x' } }]);
    assert.deepEqual(summary(parser.feed('\n```\nok')), [{ text: 'ok' }]);
    assert.deepEqual(summary(parser.feed('\n```ts\n')), [{ text: '\n```ts\n' }]);
  });

  it('keeps a call inside an ordinary code block as text, at every split', () => {
    const reply = `The form:\n\n\`\`\`\`markdown\n${CALL_A}\`\`\`\`\n\nand\n~~~\n${CALL_B}~~~\n`;
    assert.deepEqual(parseEverySplit(reply), [{ text: reply }]);
  });

  it('shows a half marker at the end of a reply as the text it is, and holds it until then', () => {
    const parser = new CallParser(TOOLS);
    assert.deepEqual(summary(parser.feed('Almost\n```tool_ca')), [{ text: 'Almost\n' }]);
    assert.deepEqual(summary(parser.end()), [{ text: '```tool_ca' }]);
    assert.deepEqual(parseEverySplit('Almost\n```tool_ca'), [{ text: 'Almost\n```tool_ca' }]);
  });

  it('follows nested braces and a marker or fence inside JSON strings, at every split', () => {
    const content = 'a {b} }} {{\n```tool_call\n{"x": 1}\n```\n"quoted" \\ end';
    const call = `\`\`\`tool_call\n${JSON.stringify({ name: 'create_file', arguments: { filePath: '/w/{x}.md', content } })}\n\`\`\``;
    assert.deepEqual(parseEverySplit(`${call}\nafter`), [
      { call: 'create_file', input: { filePath: '/w/{x}.md', content } },
      { text: 'after' },
    ]);
  });

  it('accepts the common slips', () => {
    const slips: [string, unknown][] = [
      ['```TOOL-CALL json\n{"name":"read_file","parameters":{"filePath":"a"}}\n```', { filePath: 'a' }],
      ['~~~toolcall\n{"tool":"Read_File","args":"{\\"filePath\\":\\"b\\"}"}\n~~~', { filePath: 'b' }],
      ['```tool_call\n{"function":{"name":"read_file","arguments":{"filePath":"c"}}}```', { filePath: 'c' }],
      ['```tool_call\n{"name":"create_file","arguments":{"filePath":"d","content":"l1\nl2\tx"}}\n```', undefined],
      ['```tool_call\n{"name":"read_file","arguments":{"filePath":"e"}}', { filePath: 'e' }],
    ];
    for (const [reply, input] of slips) {
      const told = parseEverySplit(reply);
      assert.equal(told.length, 1, reply);
      assert.ok('call' in told[0], `${reply}: ${JSON.stringify(told)}`);
      if (input) {
        assert.deepEqual(told[0].input, input);
      }
    }
    assert.deepEqual(
      parseEverySplit(
        '   ```tool_call\n{"name":"read_file","arguments":{"filePath":"f"}}\n{"name":"read_file"}\nNow prose.',
      ),
      [{ call: 'read_file', input: { filePath: 'f' } }, { malformed: 'arguments' }, { text: 'Now prose.' }],
    );
  });

  it('reads indented lines as they stream: an indented closing fence ends the code, an indented marker is a call', () => {
    const reply =
      'Code:\n```ts\nif (x) {\n    y();\n}\n  ```\nThen:\n  ```tool_call\n' +
      '{"name":"read_file","arguments":{"filePath":"g"}}\n  ```\nDone.';
    const told = parseEverySplit(reply);
    assert.deepEqual(told, [
      { text: 'Code:\n```ts\nif (x) {\n    y();\n}\n  ```\nThen:\n' },
      { call: 'read_file', input: { filePath: 'g' } },
      { text: 'Done.' },
    ]);
    // As a model's tokens come: a line's end with the indent after it is one piece, the rest of the line the next.
    const pieces = reply.split(/(?=\n)|(?<=\n {0,4})(?=[^ \n])/);
    assert.deepEqual(summary(parse(pieces)), told, JSON.stringify(pieces));
  });

  it('does not take a marker after other text on its line, or indented four spaces, as a call', () => {
    const reply = 'Use ```tool_call\n    ```tool_call\n{"name":"read_file"}\n';
    assert.deepEqual(parseEverySplit(reply), [{ text: reply }]);
  });

  describe('refuses each malformed kind, at every split', () => {
    const cases: [string, string, string][] = [
      ['json', '```tool_call\n{"name": "read_file", "arguments": {filePath: x}}\n```\nafter', 'not valid JSON'],
      ['json', '```tool_call\nread_file(filePath="x")\n```\nafter', 'does not hold a JSON object'],
      ['json', '```tool_call\n{"name": "read_file", "arguments": {"filePath": "x"\n```\nafter', 'not valid JSON'],
      ['shape', '```tool_call\n["read_file"]\n```\nafter', 'string "name"'],
      ['shape', '```tool_call\n```\nafter', 'empty'],
      [
        'unknownTool',
        '```tool_call\n{"name": "delete_file", "arguments": {}}\n```\nafter',
        'no tool named "delete_file"',
      ],
      [
        'arguments',
        '```tool_call\n{"name": "create_file", "arguments": {"filePath": "x"}}\n```\nafter',
        'content is required',
      ],
      [
        'arguments',
        '```tool_call\n{"name": "read_file", "arguments": {"filePath": 3}}\n```\nafter',
        'must be a string',
      ],
      [
        'arguments',
        '```tool_call\n{"name": "read_file", "arguments": {"filePath": "x", "startLine": 1.5}}\n```\nafter',
        'an integer',
      ],
      ['arguments', '```tool_call\n{"name": "read_file", "arguments": [1]}\n```\nafter', 'must be a JSON object'],
      ['unclosed', 'text\n```tool_call\n{"name": "read_file", "arguments": {"filePath": "x"', 'ended before'],
      ['unclosed', 'text\n```tool_call\n', 'ended before'],
    ];
    for (const [kind, reply, said] of cases) {
      it(`${kind}: ${said}`, () => {
        const told = parseEverySplit(reply);
        const events = parse([reply]);
        const bad = events.find((event) => event.type === 'malformed');
        assert.ok(bad && bad.type === 'malformed', JSON.stringify(told));
        assert.equal(bad.problem.kind, kind);
        assert.ok(bad.problem.detail.includes(said), bad.problem.detail);
        assert.ok(!bad.raw.includes('```'), `the raw text is the call's own: ${bad.raw}`);
        if (reply.endsWith('after')) {
          assert.deepEqual(told.at(-1), { text: 'after' });
        }
      });
    }

    it(`tooLarge: a call over ${MAX_CALL_CHARS} characters`, function () {
      this.timeout(10_000);
      const content = 'x'.repeat(MAX_CALL_CHARS + 10);
      const reply = `\`\`\`tool_call\n{"name":"create_file","arguments":{"filePath":"a","content":"${content}"}}\n\`\`\`\nafter`;
      assert.deepEqual(summary(parse([reply])), [{ malformed: 'tooLarge' }, { text: 'after' }]);
    });
  });

  // n is 512 KB (8n is 4 MB): below about 512 KB the whole run stays in the processor's caches and the young
  // generation, and the step past it, not the parser, would decide the ratio.
  it('stays linear from 512 KB to 4 MB of adversarial replies', function () {
    this.timeout(120_000);
    const shapes: [string, (n: number) => string][] = [
      ['half markers', (n) => '```tool_ca\n'.repeat(n / 11)],
      [
        'one big call',
        (n) =>
          `\`\`\`tool_call\n{"name":"create_file","arguments":{"filePath":"a","content":"${'{"\\\\'.repeat(n / 4)}"}}\n\`\`\``,
      ],
      [
        'nested arrays',
        (n) =>
          `\`\`\`tool_call\n{"name":"read_file","arguments":{"filePath":${'['.repeat(n / 2)}${']'.repeat(n / 2)}}}\n\`\`\``,
      ],
      ['many calls', (n) => CALL_B.repeat(n / CALL_B.length)],
    ];
    for (const [name, make] of shapes) {
      assertGrowth(
        `parser, ${name}`,
        (n) => chunked(make(n), 4096),
        (chunks) => parse(chunks),
        { n: 524_288, rounds: 5, maxMs: 5_000 },
      );
    }
  });
});
