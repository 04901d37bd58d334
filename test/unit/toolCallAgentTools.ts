/*
 * The tools VS Code's Agent mode passes a language model (names, descriptions and input schemas), as a fixture for the
 * tool-call encoder's measurements: the workspace tools are taken from microsoft/vscode-copilot-chat's package.json
 * (MIT licence, commit 31acd00a86424e2ee6e980e54919cf31fbf88030) under the names the model is shown; the terminal,
 * task, todo, test and subagent tools, which VS Code itself contributes, are written after the same pattern.
 */
import type { ToolSpec } from '../../src/core/toolCalls/toolSpec';

/** The 40 tools of an Agent-mode request (about 37000 characters of descriptions and schemas). */
export const AGENT_MODE_TOOLS: readonly ToolSpec[] = [
  {
    name: 'semantic_search',
    description:
      "Run a natural language search for relevant code or documentation comments from the user's current workspace. Returns relevant code snippets from the user's current workspace if it is large, or the full contents of the workspace if it is small.",
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            'The query to search the codebase for. Should contain all relevant context. Should ideally be text that might appear in the codebase, such as function names, variable names, or comments.',
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'search_workspace_symbols',
    description:
      "Search the user's workspace for code symbols using language services. Use this tool when the user is looking for a specific symbol in their workspace.",
    inputSchema: {
      type: 'object',
      properties: {
        symbolName: {
          type: 'string',
          description: 'The symbol to search for, such as a function name, class name, or variable name.',
        },
      },
      required: ['symbolName'],
    },
  },
  {
    name: 'get_vscode_api',
    description:
      "Get comprehensive VS Code API documentation and references for extension development. This tool provides authoritative documentation for VS Code's extensive API surface, including proposed APIs, contribution points, and best practices. Use this tool for understanding complex VS Code API interactions.\n\nWhen to use this tool:\n- User asks about specific VS Code APIs, interfaces, or extension capabilities\n- Need documentation for VS Code extension contribution points (commands, views, settings, etc.)\n- Questions about proposed APIs and their usage patterns\n- Understanding VS Code extension lifecycle, activation events, and packaging\n- Best practices for VS Code extension development architecture\n- API examples and code patterns for extension features\n- Troubleshooting extension-specific issues or API limitations\n\nWhen NOT to use this tool:\n- Creating simple standalone files or scripts unrelated to VS Code extensions\n- General programming questions not specific to VS Code extension development\n- Questions about using VS Code as an editor (user-facing features)\n- Non-extension related development tasks\n- File creation or editing that doesn't involve VS Code extension APIs\n\nCRITICAL usage guidelines:\n1. Always include specific API names, interfaces, or concepts in your query\n2. Mention the extension feature you're trying to implement\n3. Include context about proposed vs stable APIs when relevant\n4. Reference specific contribution points when asking about extension manifest\n5. Be specific about the VS Code version or API version when known\n\nScope: This tool is for EXTENSION DEVELOPMENT ONLY - building tools that extend VS Code itself, not for general file creation or non-extension programming tasks.",
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'The query to search vscode documentation for. Should contain all relevant context.',
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'file_search',
    description:
      "Search for files in the workspace by glob pattern. This only returns the paths of matching files. Use this tool when you know the exact filename pattern of the files you're searching for. Glob patterns match from the root of the workspace folder. Examples:\n- **/*.{js,ts} to match all js/ts files in the workspace.\n- src/** to match all files under the top-level src folder.\n- **/foo/**/*.js to match all js files under any foo folder in the workspace.\n\nIn a multi-root workspace, you can scope the search to a specific workspace folder by using the absolute path to the folder as the query, e.g. /path/to/folder/**/*.ts.",
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            'Search for files with names or paths matching this glob pattern. Can also be an absolute path to a workspace folder to scope the search in a multi-root workspace.',
        },
        maxResults: {
          type: 'number',
          description:
            "The maximum number of results to return. Do not use this unless necessary, it can slow things down. By default, only some matches are returned. If you use this and don't see what you're looking for, you can try again with a more specific query or a larger maxResults.",
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'grep_search',
    description:
      "Do a fast text search in the workspace. Use this tool when you want to search with an exact string or regex. If you are not sure what words will appear in the workspace, prefer using regex patterns with alternation (|) or character classes to search for multiple potential words at once instead of making separate searches. For example, use 'function|method|procedure' to look for all of those words at once. Use includePattern to search within files matching a specific pattern, or in a specific file, using a relative path. Use 'includeIgnoredFiles' to include files normally ignored by .gitignore, other ignore files, and `files.exclude` and `search.exclude` settings. Warning: using this may cause the search to be slower, only set it when you want to search in ignored folders like node_modules or build outputs. Use this tool when you want to see an overview of a particular file, instead of using read_file many times to look for code within a file.\n\nIn a multi-root workspace, you can scope the search to a specific workspace folder by using the absolute path to the folder as the includePattern, e.g. /path/to/folder.",
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            "The pattern to search for in files in the workspace. Use regex with alternation (e.g., 'word1|word2|word3') or character classes to find multiple potential words in a single search. Be sure to set the isRegexp property properly to declare whether it's a regex or plain text pattern. Is case-insensitive.",
        },
        isRegexp: {
          type: 'boolean',
          description: 'Whether the pattern is a regex.',
        },
        includePattern: {
          type: 'string',
          description:
            'Search files matching this glob pattern. Will be applied to the relative path of files within the workspace. To search recursively inside a folder, use a proper glob pattern like "src/folder/**". Do not use | in includePattern. Can also be an absolute path to a workspace folder to scope the search in a multi-root workspace.',
        },
        maxResults: {
          type: 'number',
          description:
            "The maximum number of results to return. Do not use this unless necessary, it can slow things down. By default, only some matches are returned. If you use this and don't see what you're looking for, you can try again with a more specific query or a larger maxResults.",
        },
        includeIgnoredFiles: {
          type: 'boolean',
          description:
            'Whether to include files that would normally be ignored according to .gitignore, other ignore files and `files.exclude` and `search.exclude` settings. Warning: using this may cause the search to be slower. Only set it when you want to search in ignored folders like node_modules or build outputs.',
        },
      },
      required: ['query', 'isRegexp'],
    },
  },
  {
    name: 'read_file',
    description:
      "Read the contents of a file.\n\nYou must specify the line range you're interested in. Line numbers are 1-indexed. If the file contents returned are insufficient for your task, you may call this tool again to retrieve more content. Prefer reading larger ranges over doing many small reads. Binary files use startLine/endLine as byte offsets.",
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          description: 'The absolute path of the file to read.',
          type: 'string',
        },
        startLine: {
          type: 'number',
          description: 'The line number to start reading from, 1-based.',
        },
        endLine: {
          type: 'number',
          description: 'The inclusive line number to end reading at, 1-based.',
        },
      },
      required: ['filePath', 'startLine', 'endLine'],
    },
  },
  {
    name: 'list_dir',
    description:
      "List the contents of a directory. Result will have the name of the child. If the name ends in /, it's a folder, otherwise a file",
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'The absolute path to the directory to list.',
        },
      },
      required: ['path'],
    },
  },
  {
    name: 'get_errors',
    description:
      'Get any compile or lint errors in a specific file or across all files. If the user mentions errors or problems in a file, they may be referring to these. Use the tool to see the same errors that the user is seeing. If the user asks you to analyze all errors, or does not specify a file, use this tool to gather errors for all files. Also use this tool after editing a file to validate the change.',
    inputSchema: {
      type: 'object',
      properties: {
        filePaths: {
          description:
            "The absolute paths to the files or folders to check for errors. Omit 'filePaths' when retrieving all errors.",
          type: 'array',
          items: {
            type: 'string',
          },
        },
      },
    },
  },
  {
    name: 'get_changed_files',
    description:
      "Get git diffs of current file changes in a git repository. Don't forget that you can use run_in_terminal to run git commands in a terminal as well.",
    inputSchema: {
      type: 'object',
      properties: {
        repositoryPath: {
          type: 'string',
          description:
            'The absolute path to the git repository to look for changes in. If not provided, the active git repository will be used.',
        },
        sourceControlState: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['staged', 'unstaged', 'merge-conflicts'],
          },
          description:
            "The kinds of git state to filter by. Allowed values are: 'staged', 'unstaged', and 'merge-conflicts'. If not provided, all states will be included.",
        },
      },
    },
  },
  {
    name: 'test_failure',
    description: 'Includes test failure information in the prompt.',
    inputSchema: {},
  },
  {
    name: 'create_new_workspace',
    description:
      'Get comprehensive setup steps to help the user create complete project structures in a VS Code workspace. This tool is designed for full project initialization and scaffolding, not for creating individual files.\n\nWhen to use this tool:\n- User wants to create a new complete project from scratch\n- Setting up entire project frameworks (TypeScript projects, React apps, Node.js servers, etc.)\n- Initializing Model Context Protocol (MCP) servers with full structure\n- Creating VS Code extensions with proper scaffolding\n- Setting up Next.js, Vite, or other framework-based projects\n- User asks for "new project", "create a workspace", "set up a [framework] project"\n- Need to establish complete development environment with dependencies, config files, and folder structure\n\nWhen NOT to use this tool:\n- Creating single files or small code snippets\n- Adding individual files to existing projects\n- Making modifications to existing codebases\n- User asks to "create a file" or "add a component"\n- Simple code examples or demonstrations\n- Debugging or fixing existing code\n\nThis tool provides complete project setup including:\n- Folder structure creation\n- Package.json and dependency management\n- Configuration files (tsconfig, eslint, etc.)\n- Initial boilerplate code\n- Development environment setup\n- Build and run instructions\n\nUse other file creation tools for individual files within existing projects.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            'The query to use to generate the new workspace. This should be a clear and concise description of the workspace the user wants to create.',
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'get_project_setup_info',
    description:
      'Do not call this tool without first calling the tool to create a workspace. This tool provides a project setup information for a Visual Studio Code workspace based on a project type and programming language.',
    inputSchema: {
      type: 'object',
      properties: {
        projectType: {
          type: 'string',
          description:
            "The type of project to create. Supported values are: 'python-script', 'python-project', 'mcp-server', 'model-context-protocol-server', 'vscode-extension', 'next-js', 'vite' and 'other'",
        },
      },
      required: ['projectType'],
    },
  },
  {
    name: 'install_extension',
    description:
      'Install an extension in VS Code. Use this tool to install an extension in Visual Studio Code as part of a new workspace creation process only.',
    inputSchema: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
          description: 'The ID of the extension to install. This should be in the format <publisher>.<extension>.',
        },
        name: {
          type: 'string',
          description:
            'The name of the extension to install. This should be a clear and concise description of the extension.',
        },
      },
      required: ['id', 'name'],
    },
  },
  {
    name: 'run_vscode_command',
    description:
      'Run a command in VS Code. Use this tool to run a command in Visual Studio Code as part of a new workspace creation process only.',
    inputSchema: {
      type: 'object',
      properties: {
        commandId: {
          type: 'string',
          description: 'The ID of the command to execute. This should be in the format <command>.',
        },
        name: {
          type: 'string',
          description:
            'The name of the command to execute. This should be a clear and concise description of the command.',
        },
        args: {
          type: 'array',
          description: 'The arguments to pass to the command. This should be an array of strings.',
          items: {
            type: 'string',
          },
        },
        skipCheck: {
          type: 'boolean',
          description: 'If true, skip checking whether the command exists before executing it.',
        },
      },
      required: ['commandId', 'name'],
    },
  },
  {
    name: 'create_new_jupyter_notebook',
    description:
      'Generates a new Jupyter Notebook (.ipynb) in VS Code. Jupyter Notebooks are interactive documents commonly used for data exploration, analysis, visualization, and combining code with narrative text. Prefer creating plain Python files or similar unless a user explicitly requests creating a new Jupyter Notebook or already has a Jupyter Notebook opened or exists in the workspace.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            'The query to use to generate the jupyter notebook. This should be a clear and concise description of the notebook the user wants to create.',
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'insert_edit_into_file',
    description:
      'Insert new code into an existing file in the workspace. Use this tool once per file that needs to be modified, even if there are multiple changes for a file. Generate the "explanation" property first.\nThe system is very smart and can understand how to apply your edits to the files, you just need to provide minimal hints.\nAvoid repeating existing code, instead use comments to represent regions of unchanged code. Be as concise as possible. For example:\n// ...existing code...\n{ changed code }\n// ...existing code...\n{ changed code }\n// ...existing code...\n\nHere is an example of how you should use format an edit to an existing Person class:\nclass Person {\n\t// ...existing code...\n\tage: number;\n\t// ...existing code...\n\tgetAge() {\n\treturn this.age;\n\t}\n}',
    inputSchema: {
      type: 'object',
      properties: {
        explanation: {
          type: 'string',
          description: 'A short explanation of the edit being made.',
        },
        filePath: {
          type: 'string',
          description: 'An absolute path to the file to edit.',
        },
        code: {
          type: 'string',
          description:
            'The code change to apply to the file.\nThe system is very smart and can understand how to apply your edits to the files, you just need to provide minimal hints.\nAvoid repeating existing code, instead use comments to represent regions of unchanged code. Be as concise as possible. For example:\n// ...existing code...\n{ changed code }\n// ...existing code...\n{ changed code }\n// ...existing code...\n\nHere is an example of how you should use format an edit to an existing Person class:\nclass Person {\n\t// ...existing code...\n\tage: number;\n\t// ...existing code...\n\tgetAge() {\n\t\treturn this.age;\n\t}\n}',
        },
      },
      required: ['explanation', 'filePath', 'code'],
    },
  },
  {
    name: 'create_file',
    description:
      'This is a tool for creating a new file in the workspace. The file will be created with the specified content. The directory will be created if it does not already exist. Never use this tool to edit a file that already exists.',
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          type: 'string',
          description: 'The absolute path to the file to create.',
        },
        content: {
          type: 'string',
          description: 'The content to write to the file.',
        },
      },
      required: ['filePath', 'content'],
    },
  },
  {
    name: 'create_directory',
    description:
      'Create a new directory structure in the workspace. Will recursively create all directories in the path, like mkdir -p. You do not need to use this tool before using create_file, that tool will automatically create the needed directories.',
    inputSchema: {
      type: 'object',
      properties: {
        dirPath: {
          type: 'string',
          description: 'The absolute path to the directory to create.',
        },
      },
      required: ['dirPath'],
    },
  },
  {
    name: 'replace_string_in_file',
    description:
      "This is a tool for making edits in an existing file in the workspace. For moving or renaming files, use run in terminal tool with the 'mv' command instead. For larger edits, split them into smaller edits and call the edit tool multiple times to ensure accuracy. Before editing, always ensure you have the context to understand the file's contents and context. To edit a file, provide: 1) filePath (absolute path), 2) oldString (MUST be the exact literal text to replace including all whitespace, indentation, newlines, and surrounding code etc), and 3) newString (MUST be the exact literal text to replace \\`oldString\\` with (also including all whitespace, indentation, newlines, and surrounding code etc.). Ensure the resulting code is correct and idiomatic.). Each use of this tool replaces exactly ONE occurrence of oldString.\n\nCRITICAL for \\`oldString\\`: Must uniquely identify the single instance to change. Include at least 3 lines of context BEFORE and AFTER the target text, matching whitespace and indentation precisely. If this string matches multiple locations, or does not match exactly, the tool will fail. Never use 'Lines 123-456 omitted' from summarized documents or ...existing code... comments in the oldString or newString.",
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          type: 'string',
          description: 'An absolute path to the file to edit.',
        },
        oldString: {
          type: 'string',
          description:
            'The exact literal text to replace, preferably unescaped. For single replacements (default), include at least 3 lines of context BEFORE and AFTER the target text, matching whitespace and indentation precisely. For multiple replacements, specify expected_replacements parameter. If this string is not the exact literal text (i.e. you escaped it) or does not match exactly, the tool will fail.',
        },
        newString: {
          type: 'string',
          description:
            'The exact literal text to replace `old_string` with, preferably unescaped. Provide the EXACT text. Ensure the resulting code is correct and idiomatic.',
        },
      },
      required: ['filePath', 'oldString', 'newString'],
    },
  },
  {
    name: 'multi_replace_string_in_file',
    description:
      'This tool allows you to apply multiple replace_string_in_file operations in a single call, which is more efficient than calling replace_string_in_file multiple times. It takes an array of replacement operations and applies them sequentially. Each replacement operation has the same parameters as replace_string_in_file: filePath, oldString, newString, and explanation. This tool is ideal when you need to make multiple edits across different files or multiple edits in the same file. The tool will provide a summary of successful and failed operations.',
    inputSchema: {
      type: 'object',
      properties: {
        explanation: {
          type: 'string',
          description: 'A brief explanation of what the multi-replace operation will accomplish.',
        },
        replacements: {
          type: 'array',
          description: 'An array of replacement operations to apply sequentially.',
          items: {
            type: 'object',
            properties: {
              filePath: {
                type: 'string',
                description: 'An absolute path to the file to edit.',
              },
              oldString: {
                type: 'string',
                description:
                  'The exact literal text to replace, preferably unescaped. Include at least 3 lines of context BEFORE and AFTER the target text, matching whitespace and indentation precisely. If this string is not the exact literal text or does not match exactly, this replacement will fail.',
              },
              newString: {
                type: 'string',
                description:
                  'The exact literal text to replace `oldString` with, preferably unescaped. Provide the EXACT text. Ensure the resulting code is correct and idiomatic.',
              },
            },
            required: ['filePath', 'oldString', 'newString'],
          },
          minItems: 1,
        },
      },
      required: ['explanation', 'replacements'],
    },
  },
  {
    name: 'edit_notebook_file',
    description:
      'This is a tool for editing an existing Notebook file in the workspace. Generate the "explanation" property first.\nThe system is very smart and can understand how to apply your edits to the notebooks.\nWhen updating the content of an existing cell, ensure newCode preserves whitespace and indentation exactly and does NOT include any code markers such as (...existing code...).',
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          type: 'string',
          description:
            'An absolute path to the notebook file to edit, or the URI of a untitled, not yet named, file, such as `untitled:Untitled-1.',
        },
        cellId: {
          type: 'string',
          description:
            'Id of the cell that needs to be deleted or edited. Use the value `TOP`, `BOTTOM` when inserting a cell at the top or bottom of the notebook, else provide the id of the cell after which a new cell is to be inserted. Remember, if a cellId is provided and editType=insert, then a cell will be inserted after the cell with the provided cellId.',
        },
        newCode: {
          anyOf: [
            {
              type: 'string',
              description:
                'The code for the new or existing cell to be edited. Code should not be wrapped within <VSCode.Cell> tags. Do NOT include code markers such as (...existing code...) to indicate existing code.',
            },
            {
              type: 'array',
              items: {
                type: 'string',
                description:
                  'The code for the new or existing cell to be edited. Code should not be wrapped within <VSCode.Cell> tags',
              },
            },
          ],
        },
        language: {
          type: 'string',
          description: 'The language of the cell. `markdown`, `python`, `javascript`, `julia`, etc.',
        },
        editType: {
          type: 'string',
          enum: ['insert', 'delete', 'edit'],
          description:
            "The operation peformed on the cell, whether `insert`, `delete` or `edit`.\nUse the `editType` field to specify the operation: `insert` to add a new cell, `edit` to modify an existing cell's content, and `delete` to remove a cell.",
        },
      },
      required: ['filePath', 'editType', 'cellId'],
    },
  },
  {
    name: 'run_notebook_cell',
    description:
      "This is a tool for running a code cell in a notebook file directly in the notebook editor. The output from the execution will be returned. Code cells should be run as they are added or edited when working through a problem to bring the kernel state up to date and ensure the code executes successfully. Code cells are ready to run and don't require any pre-processing. If asked to run the first cell in a notebook, you should run the first code cell since markdown cells cannot be executed. NOTE: Avoid executing Markdown cells or providing Markdown cell IDs, as Markdown cells cannot be  executed.",
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          type: 'string',
          description:
            'An absolute path to the notebook file with the cell to run, or the URI of a untitled, not yet named, file, such as `untitled:Untitled-1.ipynb',
        },
        reason: {
          type: 'string',
          description:
            "An optional explanation of why the cell is being run. This will be shown to the user before the tool is run and is not necessary if it's self-explanatory.",
        },
        cellId: {
          type: 'string',
          description:
            'The ID for the code cell to execute. Avoid providing markdown cell IDs as nothing will be executed.',
        },
        continueOnError: {
          type: 'boolean',
          description:
            'Whether or not execution should continue for remaining cells if an error is encountered. Default to false unless instructed otherwise.',
        },
      },
      required: ['filePath', 'cellId'],
    },
  },
  {
    name: 'copilot_getNotebookSummary',
    description:
      'This is a tool returns the list of the Notebook cells along with the id, cell types, line ranges, language, execution information and output mime types for each cell. This is useful to get Cell Ids when executing a notebook or determine what cells have been executed and what order, or what cells have outputs. If required to read contents of a cell use this to determine the line range of a cells, and then use read_file tool to read a specific line range. Requery this tool if the contents of the notebook change.',
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          type: 'string',
          description:
            'An absolute path to the notebook file with the cell to run, or the URI of a untitled, not yet named, file, such as `untitled:Untitled-1.ipynb',
        },
      },
      required: ['filePath'],
    },
  },
  {
    name: 'read_notebook_cell_output',
    description:
      'This tool will retrieve the output for a notebook cell from its most recent execution or restored from disk. The cell may have output even when it has not been run in the current kernel session. This tool has a higher token limit for output length than the runNotebookCell tool.',
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          type: 'string',
          description:
            'An absolute path to the notebook file with the cell to run, or the URI of a untitled, not yet named, file, such as `untitled:Untitled-1.ipynb',
        },
        cellId: {
          type: 'string',
          description: 'The ID of the cell for which output should be retrieved.',
        },
      },
      required: ['filePath', 'cellId'],
    },
  },
  {
    name: 'fetch_webpage',
    description:
      'Fetches the main content from a web page. This tool is useful for summarizing or analyzing the content of a webpage. You should use this tool when you think the user is looking for information from a specific webpage.',
    inputSchema: {
      type: 'object',
      properties: {
        urls: {
          type: 'array',
          items: {
            type: 'string',
          },
          description: 'An array of URLs to fetch content from.',
        },
        query: {
          type: 'string',
          description:
            "The query to search for in the web page's content. This should be a clear and concise description of the content you want to find.",
        },
      },
      required: ['urls', 'query'],
    },
  },
  {
    name: 'test_search',
    description:
      'For a source code file, find the file that contains the tests. For a test file find the file that contains the code under test.',
    inputSchema: {
      type: 'object',
      properties: {
        filePaths: {
          type: 'array',
          items: {
            type: 'string',
          },
        },
      },
      required: ['filePaths'],
    },
  },
  {
    name: 'get_search_view_results',
    description: 'The results from the search view',
    inputSchema: {
      type: 'object',
      properties: {},
    },
  },
  {
    name: 'github_repo',
    description:
      'Searches a GitHub repository for relevant source code snippets. Only use this tool if the user is very clearly asking for code snippets from a specific GitHub repository. Do not use this tool for Github repos that the user has open in their workspace.',
    inputSchema: {
      type: 'object',
      properties: {
        repo: {
          type: 'string',
          description:
            "The name of the Github repository to search for code in. Should must be formatted as '<owner>/<repo>'.",
        },
        query: {
          type: 'string',
          description: 'The query to search for repo. Should contain all relevant context.',
        },
      },
      required: ['repo', 'query'],
    },
  },
  {
    name: 'run_in_terminal',
    description:
      'This tool allows you to execute shell commands in a persistent bash terminal session, preserving environment variables, working directory, and other context across multiple commands.\n\nCommand Execution:\n- Use && to chain simple commands on one line\n- Prefer pipelines | over temporary files for data flow\n- Never create a sub-shell (eg. bash -c "command") unless explicitly asked\n\nDirectory Management:\n- Must use absolute paths to avoid navigation issues\n- Use $PWD for current directory references\n- Consider using pushd/popd for directory stack management\n- Supports directory shortcuts like ~ and -\n\nProgram Execution:\n- Supports Python, Node.js, and other executables\n- Install packages via package managers (brew, apt, etc.)\n- Use which or command -v to verify command availability\n\nBackground Processes:\n- For long-running tasks (e.g., servers), set isBackground=true\n- Returns a terminal ID for checking status and runtime later\n\nOutput Management:\n- Output is automatically truncated if longer than 60KB to prevent context overflow\n- Use head, tail, grep, awk to filter and limit output size\n- For pager commands, disable paging: git --no-pager or add | cat\n- Use wc -l to count lines before displaying large outputs\n\nBest Practices:\n- Quote variables: "$var" instead of $var to handle spaces\n- Use find with -exec or xargs for file operations\n- Be specific with commands to avoid excessive output\n- Avoid printing credentials unless absolutely required\n- Use type to check command type (builtin, function, alias)\n- Use jobs, fg, bg for job control\n- Use [[ ]] for conditional tests instead of [ ]\n- Prefer $() over backticks for command substitution\n- Use set -e at the beginning of complex commands to exit on errors',
    inputSchema: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
          description: 'The command to run in the terminal.',
        },
        explanation: {
          type: 'string',
          description:
            'A one-sentence description of what the command does. This will be shown to the user before the command is run.',
        },
        isBackground: {
          type: 'boolean',
          description:
            'Whether the command starts a background process. If true, the command will run in the background and you will not see the output. If false, the tool call will block on the command finishing, and then you will get the output. Examples of background processes: building in watch mode, starting a server. You can check on a background process later on by using get_terminal_output.',
        },
      },
      required: ['command', 'explanation', 'isBackground'],
    },
  },
  {
    name: 'get_terminal_output',
    description: 'Get the output of a terminal command previously started with run_in_terminal',
    inputSchema: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
          description: 'The ID of the terminal to check.',
        },
      },
      required: ['id'],
    },
  },
  {
    name: 'terminal_last_command',
    description: 'Get the last command run in the active terminal.',
    inputSchema: {
      type: 'object',
      properties: {},
    },
  },
  {
    name: 'terminal_selection',
    description: 'Get the current selection in the active terminal.',
    inputSchema: {
      type: 'object',
      properties: {},
    },
  },
  {
    name: 'create_and_run_task',
    description:
      'Creates and runs a build, run, or custom task for the workspace by generating or adding to a tasks.json file based on the project structure (such as package.json or README.md). If the user asks to build, run, launch and they have no tasks.json file, use this tool. If they ask to create or add a task, use this tool.',
    inputSchema: {
      type: 'object',
      properties: {
        workspaceFolder: {
          type: 'string',
          description: 'The absolute path of the workspace folder where the tasks.json file will be created.',
        },
        task: {
          type: 'object',
          description: 'The task to add to the new tasks.json file.',
          properties: {
            label: {
              type: 'string',
              description: 'The label of the task.',
            },
            type: {
              type: 'string',
              description: "The type of the task. The only supported value is 'shell'.",
              enum: ['shell'],
            },
            command: {
              type: 'string',
              description:
                'The shell command to run for the task. Use this to specify commands for building or running the application.',
            },
            args: {
              type: 'array',
              description: 'The arguments to pass to the command.',
              items: {
                type: 'string',
              },
            },
            isBackground: {
              type: 'boolean',
              description:
                'Whether the task runs in the background without blocking the UI or other tasks. Set to true for long-running processes like watch tasks or servers that should continue executing without requiring user attention. When false, the task will block the terminal until completion.',
            },
            problemMatcher: {
              type: 'array',
              description:
                "The problem matcher to use to parse task output for errors and warnings. Can be a predefined matcher like '$tsc' (TypeScript compiler), '$eslint-stylish', '$gcc', etc., or a custom pattern defined in tasks.json. This helps VS Code display errors in the Problems panel and enables quick navigation to error locations.",
              items: {
                type: 'string',
              },
            },
            group: {
              type: 'string',
              description: 'The group to which the task belongs.',
            },
          },
          required: ['label', 'type', 'command'],
        },
      },
      required: ['task', 'workspaceFolder'],
    },
  },
  {
    name: 'run_task',
    description:
      'Runs a VS Code task.\n\n- If you see that an appropriate task exists for building or running code, prefer to use this tool to run the task instead of using the run_in_terminal tool.\n- Make sure that any appropriate build or watch task is running before trying to run tests or execute code.\n- If the user asks to run a task, use this tool to do so.',
    inputSchema: {
      type: 'object',
      properties: {
        workspaceFolder: {
          type: 'string',
          description: 'The workspace folder path containing the task',
        },
        id: {
          type: 'string',
          description: 'The task ID to run.',
        },
      },
      required: ['workspaceFolder', 'id'],
    },
  },
  {
    name: 'get_task_output',
    description: 'Get the output of a task',
    inputSchema: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
          description: 'The task ID for which to get the output.',
        },
        workspaceFolder: {
          type: 'string',
          description: 'The workspace folder path containing the task',
        },
      },
      required: ['id', 'workspaceFolder'],
    },
  },
  {
    name: 'manage_todo_list',
    description:
      'Manage a structured todo list to track progress and plan tasks throughout your coding session. Use this tool VERY frequently to ensure task visibility and proper planning.\n\nWhen to use this tool:\n- Complex multi-step work requiring planning and tracking\n- When user provides multiple tasks or requests (numbered/comma-separated)\n- After receiving new instructions that require multiple steps\n- BEFORE starting work on any todo (mark as in-progress)\n- IMMEDIATELY after completing each todo (mark completed individually)\n- When breaking down larger tasks into smaller actionable steps\n- To give users visibility into your progress and planning\n\nWhen NOT to use:\n- Single, trivial tasks that can be completed in one step\n- Purely conversational/informational requests\n- When just reading files or performing simple searches\n\nCRITICAL workflow:\n1. Plan tasks by writing todo list with specific, actionable items\n2. Mark ONE todo as in-progress before starting work\n3. Complete the work for that specific todo\n4. Mark that todo as completed IMMEDIATELY\n5. Move to next todo and repeat\n\nTodo states:\n- not-started: Todo not yet begun\n- in-progress: Currently working (limit ONE at a time)\n- completed: Fully finished with no blockers\n\nIMPORTANT: Mark todos completed as soon as they are done. Do not batch completions.',
    inputSchema: {
      type: 'object',
      properties: {
        todoList: {
          type: 'array',
          description: 'Complete array of all todo items. Must include ALL items - both existing and new.',
          items: {
            type: 'object',
            properties: {
              id: {
                type: 'number',
                description: 'Unique identifier for the todo. Use sequential numbers starting from 1.',
              },
              title: {
                type: 'string',
                description: 'Concise action-oriented todo label (3-7 words). Displayed in UI.',
              },
              description: {
                type: 'string',
                description:
                  'Detailed context, requirements, or implementation notes. Include file paths, specific methods, or acceptance criteria.',
              },
              status: {
                type: 'string',
                enum: ['not-started', 'in-progress', 'completed'],
                description:
                  'not-started: Not begun | in-progress: Currently working (max 1) | completed: Fully finished with no blockers',
              },
            },
            required: ['id', 'title', 'description', 'status'],
          },
        },
        operation: {
          type: 'string',
          enum: ['write', 'read'],
          description:
            'write: Replace entire todo list with new content. read: Retrieve current todo list. ALWAYS provide complete list when writing - partial updates not supported.',
        },
      },
      required: ['operation'],
    },
  },
  {
    name: 'runTests',
    description:
      'Runs unit tests in files. Use this tool if the user asks to run tests or when you want to validate changes using unit tests, and prefer using this tool instead of the terminal tool. When possible, always try to provide `files` paths containing the relevant unit tests in order to avoid unnecessarily long test runs. This tool outputs detailed information about the results of the test run. Set mode="coverage" to also collect coverage and optionally provide coverageFiles for focused reporting.',
    inputSchema: {
      type: 'object',
      properties: {
        files: {
          type: 'array',
          items: {
            type: 'string',
          },
          description: 'Absolute paths to the test files to run. If not provided, all test files will be run.',
        },
        testNames: {
          type: 'array',
          items: {
            type: 'string',
          },
          description:
            'An array of test names to run. Depending on the context, test names defined in code may be strings or the names of functions or classes containing the test cases. If not provided, all tests in the files will be run.',
        },
        mode: {
          type: 'string',
          enum: ['run', 'coverage'],
          description: 'Execution mode: "run" (default) runs tests normally, "coverage" collects coverage.',
        },
        coverageFiles: {
          type: 'array',
          items: {
            type: 'string',
          },
          description:
            'When mode="coverage": absolute file paths to include detailed coverage info for. Only the first matching file will be summarized.',
        },
      },
    },
  },
  {
    name: 'runSubagent',
    description:
      "Launch a new agent to handle complex, multi-step tasks autonomously. This tool is good at researching complex questions, searching for code, and executing multi-step tasks. When you are searching for a keyword or file and are not confident that you will find the right match in the first few tries, use this agent to perform the search for you.\n\n- Agents do not run async or in the background, you will wait for the agent's result.\n- When the agent is done, it will return a single message back to you. The result returned by the agent is not visible to the user. To show the user the result, you should send a text message back to the user with a concise summary of the result.\n- Each agent invocation is stateless. You will not be able to send additional messages to the agent, nor will the agent be able to communicate with you outside of its final report. Therefore, your prompt should contain a highly detailed task description for the agent to perform autonomously and you should specify exactly what information the agent should return back to you in its final and only message to you.\n- The agent's outputs should generally be trusted\n- Clearly tell the agent whether you expect it to write code or just to do research (search, file reads, web fetches, etc.), since it is not aware of the user's intent",
    inputSchema: {
      type: 'object',
      properties: {
        prompt: {
          type: 'string',
          description: 'A detailed description of the task for the agent to perform',
        },
        description: {
          type: 'string',
          description: 'A short (3-5 word) description of the task',
        },
      },
      required: ['prompt', 'description'],
    },
  },
  {
    name: 'vscode_askQuestions',
    description:
      'Ask the user one or more questions to clarify requirements or gather preferences before proceeding. Use this when the task is ambiguous and a wrong guess would waste work. Each question can offer options; the user may also answer in free text.',
    inputSchema: {
      type: 'object',
      properties: {
        questions: {
          type: 'array',
          description: 'The questions to ask.',
          items: {
            type: 'object',
            properties: {
              header: {
                type: 'string',
                description: 'A short label for the question.',
              },
              question: {
                type: 'string',
                description: 'The question text.',
              },
              options: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    label: {
                      type: 'string',
                    },
                    description: {
                      type: 'string',
                    },
                  },
                  required: ['label'],
                },
              },
              multiSelect: {
                type: 'boolean',
                description: 'Whether several options may be chosen.',
              },
            },
            required: ['header', 'question'],
          },
        },
      },
      required: ['questions'],
    },
  },
  {
    name: 'open_simple_browser',
    description:
      "Preview a website or open a URL in the editor's Simple Browser. Useful for quickly viewing locally hosted websites, demos, or resources without leaving the editor.",
    inputSchema: {
      type: 'object',
      properties: {
        url: {
          type: 'string',
          description:
            'The website URL to preview or open in the Simple Browser inside the editor. Must be either an http or https URL',
        },
      },
      required: ['url'],
    },
  },
];
