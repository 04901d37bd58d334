import type { ToolSpec } from '../../src/core/toolCalls/toolSpec';

/** The tool the tool-call tests call most: `create_file` with two required strings, as Agent mode offers it. */
export const CREATE_FILE: ToolSpec = {
  name: 'create_file',
  description: 'Create a file.',
  inputSchema: {
    type: 'object',
    properties: { filePath: { type: 'string' }, content: { type: 'string' } },
    required: ['filePath', 'content'],
  },
};
