/*
 * The 40 tools an Agent-mode request carries to the language model, as a fixture for the tool-call encoder's
 * measurements. Names and input schemas are those VS Code's Agent mode offers; the descriptions were written for this
 * project and say what VS Code's say, in the same shape (lists, examples, line breaks) and at about the same length, so
 * that token counts measured over them stay representative.
 */
import type { ToolSpec } from '../../src/core/toolCalls/toolSpec';

/** The 40 tools of an Agent-mode request (about 39000 characters of descriptions and schemas). */
export const AGENT_MODE_TOOLS: readonly ToolSpec[] = [
  {
    name: 'semantic_search',
    description:
      "Search the user's current workspace with a natural language query for code or documentation comments that matter to the question. For a large workspace it returns the most relevant snippets; for a small one it returns everything in it.",
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            'What to look for in the codebase. Give all the context that matters, ideally as words likely to occur in the code itself, for example names of functions, variables or classes, or comments.',
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'search_workspace_symbols',
    description:
      "Look up code symbols in the user's workspace through the language services. Call this when the user wants to find one particular symbol in their code.",
    inputSchema: {
      type: 'object',
      properties: {
        symbolName: {
          type: 'string',
          description: 'Name of the symbol to look for, for example a function, class or variable name.',
        },
      },
      required: ['symbolName'],
    },
  },
  {
    name: 'get_vscode_api',
    description:
      "Look up thorough documentation and references for the VS Code extension API. It is an authoritative source for the whole extension API, covering proposed APIs, contribution points and recommended practice, and is the tool to use when working out how parts of the VS Code API fit together.\n\nUse it when:\n- The user asks about particular VS Code APIs, interfaces or things an extension can do\n- You need documentation for an extension's contribution points (commands, views, settings and so on)\n- There are questions about proposed APIs and how they are meant to be used\n- You must understand an extension's lifecycle, its activation events or how it is packaged\n- You want recommended ways to structure the architecture of an extension\n- You need API examples or code patterns for an extension feature\n- You are diagnosing problems specific to extensions or limits of the API\n\nDo NOT use it when:\n- Writing simple standalone files or scripts that have nothing to do with VS Code extensions\n- Answering general programming questions not tied to writing extensions\n- Answering questions about using VS Code as an editor (features for end users)\n- Doing development work that does not concern extensions\n- Creating or editing files without touching the VS Code extension API\n\nIMPORTANT rules for queries:\n1. Always name the exact APIs, interfaces or concepts you are asking about\n2. Say which extension feature you are trying to build\n3. Say whether proposed or stable APIs are meant, where it matters\n4. Name the contribution points when the question is about the extension manifest\n5. Give the VS Code or API version when you know it\n\nScope: the tool serves EXTENSION DEVELOPMENT ONLY, that is building things that extend VS Code itself, and not general file creation or programming outside extensions.",
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'What to look up in the VS Code documentation. Include all the context that matters.',
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'file_search',
    description:
      "Find files in the workspace by glob pattern; only the paths of the matching files come back. Use it when you know the shape of the file names you want. Patterns are matched from the root of the workspace folder. For example:\n- **/*.{js,ts} matches every js and ts file in the workspace.\n- src/** matches every file below the top-level src folder.\n- **/foo/**/*.js matches every js file below any folder called foo.\n\nIn a workspace with several roots, limit the search to one of its folders by giving that folder's absolute path as the query, for example /path/to/folder/**/*.ts.",
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            'Glob pattern that the names or paths of the wanted files must match. May instead be the absolute path of a workspace folder, to limit the search in a multi-root workspace.',
        },
        maxResults: {
          type: 'number',
          description:
            'Upper limit on how many results come back. Leave it out unless you need it, since it can make the search slower. Without it only part of the matches are returned. If you set it and still miss what you want, search again with a narrower query or a higher maxResults.',
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'grep_search',
    description:
      "Run a quick text search across the workspace, for an exact string or a regular expression. When you cannot be sure which words the workspace uses, search for several candidates in one go with a regex using alternation (|) or character classes, rather than running one search per word; for instance 'function|method|procedure' finds all three words together. Set includePattern to a relative path or pattern to search only matching files or a single file. Set 'includeIgnoredFiles' to also search files that .gitignore, other ignore files, or the `files.exclude` and `search.exclude` settings normally leave out. Be aware that this can make the search slower, so only set it when you mean to search ignored folders such as node_modules or build output. This tool is also a good way to get an overview of one file, instead of calling read_file over and over to find code inside it.\n\nIn a workspace with several roots, limit the search to one of its folders by giving that folder's absolute path as the includePattern, for example /path/to/folder.",
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            "What to look for in the workspace's files. To match several candidate words in one search, use a regex with alternation (for example 'word1|word2|word3') or character classes. Set the isRegexp property correctly so it is clear whether this is a regex or plain text. Matching ignores case.",
        },
        isRegexp: {
          type: 'boolean',
          description: 'True if the pattern is a regex.',
        },
        includePattern: {
          type: 'string',
          description:
            'Only search files that match this glob pattern, which is applied to each file\'s path relative to the workspace. To search a folder and everything below it, use a glob such as "src/folder/**". Do not put | in includePattern. May instead be the absolute path of a workspace folder, to limit the search in a multi-root workspace.',
        },
        maxResults: {
          type: 'number',
          description:
            'Upper limit on how many results come back. Leave it out unless you need it, since it can make the search slower. Without it only part of the matches are returned. If you set it and still miss what you want, search again with a narrower query or a higher maxResults.',
        },
        includeIgnoredFiles: {
          type: 'boolean',
          description:
            'Whether to also search files that are normally left out by .gitignore, other ignore files, or the `files.exclude` and `search.exclude` settings. Be aware that this can make the search slower. Only set it when you mean to search ignored folders such as node_modules or build output.',
        },
      },
      required: ['query', 'isRegexp'],
    },
  },
  {
    name: 'read_file',
    description:
      'Return the contents of a file.\n\nYou have to give the range of lines you want. Lines are counted from 1. If what comes back is not enough for the task, call the tool again to get more of the file. Reading a few large ranges is better than many small ones. For binary files, startLine and endLine are taken as byte offsets.',
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          description: 'Absolute path of the file to be read.',
          type: 'string',
        },
        startLine: {
          type: 'number',
          description: 'Line number where reading starts, counted from 1.',
        },
        endLine: {
          type: 'number',
          description: 'Line number where reading stops (included), from 1.',
        },
      },
      required: ['filePath', 'startLine', 'endLine'],
    },
  },
  {
    name: 'list_dir',
    description:
      'Show what a directory contains. Each result is the name of a child; a name ending in / is a folder, and any other name is a file',
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'Absolute path of the directory to be listed.',
        },
      },
      required: ['path'],
    },
  },
  {
    name: 'get_errors',
    description:
      'Report compile or lint errors for one file or for all files. When the user speaks of errors or problems in a file, these are likely what they mean, since the tool shows the same errors the user sees. If the user wants every error analysed, or names no file, use the tool to collect errors across all files. Also run it after you edit a file, to check the change.',
    inputSchema: {
      type: 'object',
      properties: {
        filePaths: {
          description:
            "Absolute paths of the files or folders whose errors should be checked. Leave out 'filePaths' to get every error.",
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
      'Return git diffs of the current changes to files in a git repository. Remember that run_in_terminal can also run git commands in a terminal for you.',
    inputSchema: {
      type: 'object',
      properties: {
        repositoryPath: {
          type: 'string',
          description:
            'Absolute path of the git repository whose changes should be looked up. When it is left out, the active git repository is used.',
        },
        sourceControlState: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['staged', 'unstaged', 'merge-conflicts'],
          },
          description:
            "Which git states to filter on. The allowed values are 'staged', 'unstaged' and 'merge-conflicts'. When it is left out, every state is included.",
        },
      },
    },
  },
  {
    name: 'test_failure',
    description: 'Adds information about failing tests to the prompt.',
    inputSchema: {},
  },
  {
    name: 'create_new_workspace',
    description:
      'Give detailed setup steps that help the user build a complete project structure in a VS Code workspace. The tool is meant for setting up and scaffolding whole projects, not for making single files.\n\nUse it when:\n- The user wants a complete new project made from nothing\n- Whole project frameworks must be set up (TypeScript projects, React apps, Node.js servers and so on)\n- A Model Context Protocol (MCP) server is to be started with its full structure\n- A VS Code extension is to be created with proper scaffolding\n- A Next.js, Vite or other framework-based project is to be set up\n- The user asks for a "new project", to "create a workspace" or to "set up a [framework] project"\n- A full development environment is needed, with dependencies, config files and folders\n\nDo NOT use it when:\n- Making a single file or a small piece of code\n- Adding files one at a time to a project that exists\n- Changing code in a codebase that exists\n- The user asks to "create a file" or "add a component"\n- Giving simple code examples or demonstrations\n- Debugging or repairing code that exists\n\nThe setup it gives covers:\n- Creating the folder structure\n- Package.json and managing dependencies\n- Configuration files (tsconfig, eslint and so on)\n- Starting boilerplate code\n- Setting up the development environment\n- How to build and run\n\nFor single files inside projects that exist, use the other file creation tools.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            'What the new workspace should be, as used to generate it. Make it a clear, short description of the workspace the user wants to create.',
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'get_project_setup_info',
    description:
      'Never call this tool before calling the tool that creates a workspace. It returns setup information for a project in a Visual Studio Code workspace, depending on the kind of project and the programming language.',
    inputSchema: {
      type: 'object',
      properties: {
        projectType: {
          type: 'string',
          description:
            "Kind of project to create. The supported values are 'python-script', 'python-project', 'mcp-server', 'model-context-protocol-server', 'vscode-extension', 'next-js', 'vite' and 'other'",
        },
      },
      required: ['projectType'],
    },
  },
  {
    name: 'install_extension',
    description:
      'Install a VS Code extension. Only use this to add an extension to Visual Studio Code while a new workspace is being created, and not otherwise.',
    inputSchema: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
          description: 'ID of the extension to be installed. It should take the form <publisher>.<extension>.',
        },
        name: {
          type: 'string',
          description:
            'Name of the extension to be installed. Give a clear and short description of the extension here.',
        },
      },
      required: ['id', 'name'],
    },
  },
  {
    name: 'run_vscode_command',
    description:
      'Execute a VS Code command. Only use this to run a command in Visual Studio Code while a new workspace is being created, not otherwise.',
    inputSchema: {
      type: 'object',
      properties: {
        commandId: {
          type: 'string',
          description: 'ID of the command to be executed. It should take the form <command>.',
        },
        name: {
          type: 'string',
          description: 'Name of the command to be executed. Give a clear and short description of the command here.',
        },
        args: {
          type: 'array',
          description: 'Arguments for the command. They should be given as an array of strings.',
          items: {
            type: 'string',
          },
        },
        skipCheck: {
          type: 'boolean',
          description: 'When true, do not check that the command exists before executing it.',
        },
      },
      required: ['commandId', 'name'],
    },
  },
  {
    name: 'create_new_jupyter_notebook',
    description:
      'Create a new Jupyter Notebook (.ipynb) in VS Code. Jupyter Notebooks are interactive documents that are often used to explore, analyse and visualize data, and to mix running code with explanatory text. Prefer plain Python files or something similar, unless the user explicitly asks for a new Jupyter Notebook, or already has one open or present in the workspace.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            'What the Jupyter notebook should be, as used to generate it. Make it a clear, short description of the notebook the user wants to create.',
        },
      },
      required: ['query'],
    },
  },
  {
    name: 'insert_edit_into_file',
    description:
      'Add new code to a file that already exists in the workspace. Call this tool once for each file to change, even when that file needs several changes. Write the "explanation" property first.\nThe system is clever enough to work out how to apply your edits to the files; it only needs minimal hints.\nDo not repeat code that stays the same; mark unchanged regions with comments instead. Keep it as short as you can. For example:\n// ...existing code...\n{ changed code }\n// ...existing code...\n{ changed code }\n// ...existing code...\n\nThis is how an edit to an existing Invoice class should be formatted:\nclass Invoice {\n\t// ...existing code...\n\ttotal: number;\n\t// ...existing code...\n\tgetTotal() {\n\treturn this.total;\n\t}\n}',
    inputSchema: {
      type: 'object',
      properties: {
        explanation: {
          type: 'string',
          description: 'Short account of what the edit changes.',
        },
        filePath: {
          type: 'string',
          description: 'Absolute path of the file to be edited.',
        },
        code: {
          type: 'string',
          description:
            "The change to apply to the file's code.\nThe system is clever enough to work out how to apply your edits to the files; it only needs minimal hints.\nDo not repeat code that stays the same; mark unchanged regions with comments instead. Keep it as short as you can. For example:\n// ...existing code...\n{ changed code }\n// ...existing code...\n{ changed code }\n// ...existing code...\n\nThis is how an edit to an existing Invoice class should be formatted:\nclass Invoice {\n\t// ...existing code...\n\ttotal: number;\n\t// ...existing code...\n\tgetTotal() {\n\t\treturn this.total;\n\t}\n}",
        },
      },
      required: ['explanation', 'filePath', 'code'],
    },
  },
  {
    name: 'create_file',
    description:
      'Creates a new file in the workspace that holds the content given. If the directory for the file does not exist yet, it is created as well. Never use this tool to make changes to a file that is already there.',
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          type: 'string',
          description: 'Absolute path of the file to be created.',
        },
        content: {
          type: 'string',
          description: 'The text to write into the file.',
        },
      },
      required: ['filePath', 'content'],
    },
  },
  {
    name: 'create_directory',
    description:
      'Make a new directory structure in the workspace, creating every directory along the path as mkdir -p does. There is no need to call this before create_file, since that tool creates any directories it needs by itself.',
    inputSchema: {
      type: 'object',
      properties: {
        dirPath: {
          type: 'string',
          description: 'Absolute path of the directory to be created.',
        },
      },
      required: ['dirPath'],
    },
  },
  {
    name: 'replace_string_in_file',
    description:
      "Edits a file that already exists in the workspace. To move or rename a file, use the run in terminal tool with the 'mv' command instead. Split a large edit into several smaller ones and call the edit tool once for each, so that each is applied precisely. Before you edit, make sure you have enough context to understand what the file contains. An edit needs: 1) filePath (an absolute path), 2) oldString (which MUST be the exact literal text to be replaced, with all its whitespace, indentation, newlines and surrounding code), and 3) newString (which MUST be the exact literal text to put in place of \\`oldString\\`, again with all whitespace, indentation, newlines and surrounding code. The resulting code must be correct and idiomatic.). One call replaces exactly ONE occurrence of oldString.\n\nIMPORTANT for \\`oldString\\`: it must pick out the one place to change and no other. Give at least 3 lines of context BEFORE and AFTER the text to change, with whitespace and indentation exactly as in the file. If the string matches in several places, or does not match exactly, the tool fails. Never put 'Lines 123-456 omitted' from summarized documents, or ...existing code... comments, in oldString or newString.",
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          type: 'string',
          description: 'Absolute path of the file to be edited.',
        },
        oldString: {
          type: 'string',
          description:
            'The exact literal text to be replaced, ideally not escaped. For a single replacement (the default), give at least 3 lines of context BEFORE and AFTER the text to change, with whitespace and indentation exactly as in the file. For several replacements, set the expected_replacements parameter. If the string is not the exact literal text (for example because you escaped it) or does not match exactly, the tool fails.',
        },
        newString: {
          type: 'string',
          description:
            'The exact literal text to put in place of `old_string`, ideally not escaped. Give the EXACT text, and make sure the resulting code is correct and idiomatic.',
        },
      },
      required: ['filePath', 'oldString', 'newString'],
    },
  },
  {
    name: 'multi_replace_string_in_file',
    description:
      'Applies several replace_string_in_file operations in one call, which is cheaper than calling replace_string_in_file again and again. It takes an array of replacements and carries them out one after another. Every replacement takes the same parameters as replace_string_in_file: filePath, oldString, newString and explanation. It suits cases where you need several edits across different files, or several edits to one file. The tool reports which operations succeeded and which failed.',
    inputSchema: {
      type: 'object',
      properties: {
        explanation: {
          type: 'string',
          description: 'Short account of what the multiple replacements are meant to achieve.',
        },
        replacements: {
          type: 'array',
          description: 'Replacement operations, applied one after another, in order.',
          items: {
            type: 'object',
            properties: {
              filePath: {
                type: 'string',
                description: 'Absolute path of the file to be edited.',
              },
              oldString: {
                type: 'string',
                description:
                  'The exact literal text to be replaced, ideally not escaped. Give at least 3 lines of context BEFORE and AFTER the text to change, with whitespace and indentation exactly as in the file. If the string is not the exact literal text or does not match exactly, this replacement fails.',
              },
              newString: {
                type: 'string',
                description:
                  'The exact literal text to put in place of `oldString`, ideally not escaped. Give the EXACT text, and make sure the resulting code is correct and idiomatic.',
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
      'Edits a Notebook file that already exists in the workspace. Write the "explanation" property first.\nThe system is clever enough to work out how to apply your edits to the notebooks.\nWhen you change the content of an existing cell, newCode must keep whitespace and indentation exactly as they are and must NOT contain code markers such as (...existing code...).',
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          type: 'string',
          description:
            'Absolute path of the notebook file to edit, or the URI of an untitled file that has no name yet, for example `untitled:Untitled-1.',
        },
        cellId: {
          type: 'string',
          description:
            'Id of the cell to delete or edit. When inserting a cell at the very start or end of the notebook use the value `TOP` or `BOTTOM`; otherwise give the id of the cell that the new cell should follow. Note that when a cellId is given together with editType=insert, the new cell goes in after the cell with that cellId.',
        },
        newCode: {
          anyOf: [
            {
              type: 'string',
              description:
                'Code for the cell, new or existing, that is being edited. Do not wrap the code in <VSCode.Cell> tags, and do NOT add code markers such as (...existing code...) to stand for existing code.',
            },
            {
              type: 'array',
              items: {
                type: 'string',
                description:
                  'Code for the cell, new or existing, that is being edited. Do not wrap the code in <VSCode.Cell> tags',
              },
            },
          ],
        },
        language: {
          type: 'string',
          description: 'Language of the cell, such as `markdown`, `python`, `javascript` or `julia`.',
        },
        editType: {
          type: 'string',
          enum: ['insert', 'delete', 'edit'],
          description:
            'What to do with the cell: `insert`, `delete` or `edit`.\nSet the `editType` field to choose the operation: `insert` adds a new cell, `edit` changes the content of an existing cell, and `delete` takes a cell away.',
        },
      },
      required: ['filePath', 'editType', 'cellId'],
    },
  },
  {
    name: 'run_notebook_cell',
    description:
      'Runs one code cell of a notebook file right in the notebook editor and returns the output of the run. When working through a problem, run code cells as you add or edit them, so the kernel state stays current and you know the code works. Code cells can be run as they are, with no preparation. If asked to run the first cell of a notebook, run the first code cell, since markdown cells cannot be run. NOTE: do not try to run Markdown cells or pass the IDs of Markdown cells, because Markdown cells cannot be executed.',
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          type: 'string',
          description:
            'Absolute path of the notebook file holding the cell to run, or the URI of an untitled file that has no name yet, for example `untitled:Untitled-1.ipynb',
        },
        reason: {
          type: 'string',
          description:
            'Optional explanation of why the cell is run. It is shown to the user before the tool runs, and can be left out when the reason is obvious from context.',
        },
        cellId: {
          type: 'string',
          description:
            'ID of the code cell to run. Do not give the IDs of markdown cells, since running them does nothing.',
        },
        continueOnError: {
          type: 'boolean',
          description:
            'Whether to go on running the remaining cells when one of them fails. Defaults to false unless you have been told otherwise.',
        },
      },
      required: ['filePath', 'cellId'],
    },
  },
  {
    name: 'copilot_getNotebookSummary',
    description:
      "Lists the cells of a Notebook with, for each cell, its id, cell type, line range, language, execution details and the mime types of its output. Use it to find Cell Ids before running a notebook, or to see which cells have run and in which order, or which cells have output. To read what a cell contains, first use this to find the cell's line range, then read that range with the read_file tool. Call it again whenever the notebook's contents change.",
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          type: 'string',
          description:
            'Absolute path of the notebook file holding the cell to run, or the URI of an untitled file that has no name yet, for example `untitled:Untitled-1.ipynb',
        },
      },
      required: ['filePath'],
    },
  },
  {
    name: 'read_notebook_cell_output',
    description:
      'Gets the output of a notebook cell from its latest run, or as restored from disk. A cell can have output even if it has not run in the current kernel session. The limit on how many tokens of output it returns is higher than that of the runNotebookCell tool.',
    inputSchema: {
      type: 'object',
      properties: {
        filePath: {
          type: 'string',
          description:
            'Absolute path of the notebook file holding the cell to run, or the URI of an untitled file that has no name yet, for example `untitled:Untitled-1.ipynb',
        },
        cellId: {
          type: 'string',
          description: 'ID of the cell whose output is to be returned to you.',
        },
      },
      required: ['filePath', 'cellId'],
    },
  },
  {
    name: 'fetch_webpage',
    description:
      'Gets the main content of a web page, for example to summarize or analyse what the page says. Use it when you believe the user wants information that can be found on one particular web page.',
    inputSchema: {
      type: 'object',
      properties: {
        urls: {
          type: 'array',
          items: {
            type: 'string',
          },
          description: 'List of URLs whose content to fetch.',
        },
        query: {
          type: 'string',
          description:
            'What to look for in the content of the web page. Make it a clear, short description of the content you are trying to find.',
        },
      },
      required: ['urls', 'query'],
    },
  },
  {
    name: 'test_search',
    description:
      'Given a source file, finds the file holding its tests; given a test file, finds the file holding the code that it tests.',
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
    description: 'What the search view has found',
    inputSchema: {
      type: 'object',
      properties: {},
    },
  },
  {
    name: 'github_repo',
    description:
      'Searches one GitHub repository for source code snippets that matter to the question. Only use it when the user plainly asks for code snippets from a particular GitHub repository, and never for GitHub repositories the user has open in the workspace.',
    inputSchema: {
      type: 'object',
      properties: {
        repo: {
          type: 'string',
          description:
            "Name of the GitHub repository in which to search for code. It must be written as '<owner>/<repo>'.",
        },
        query: {
          type: 'string',
          description: 'What to search the repository for. Include all relevant context.',
        },
      },
      required: ['repo', 'query'],
    },
  },
  {
    name: 'run_in_terminal',
    description:
      'Runs shell commands in a bash terminal session that persists, so environment variables, the working directory and other state carry over from one command to the next.\n\nRunning commands:\n- Join simple commands on one line with &&\n- Pass data through pipes | rather than temporary files\n- Do not start a sub-shell (such as bash -c "command") unless told to\n\nDirectories:\n- Always use absolute paths so the current directory cannot mislead you\n- Refer to the current directory with $PWD\n- pushd and popd can manage a stack of directories\n- Shortcuts such as ~ and - work for directories\n\nRunning programs:\n- Python, Node.js and other executables can be run\n- Install packages through package managers (brew, apt and so on)\n- Check that a command exists with which or command -v\n\nBackground processes:\n- For tasks that run a long time (servers, for example), set isBackground=true\n- You get back a terminal ID with which to check status and runtime later\n\nOutput:\n- Output longer than 60KB is cut short so the context does not overflow\n- Filter and shorten output with head, tail, grep or awk\n- Turn off paging for commands that page: git --no-pager, or append | cat\n- Count lines with wc -l before showing output that may be large\n\nGood habits:\n- Quote variables, "$var" rather than $var, so spaces are handled\n- Work on files with find -exec or with xargs\n- Keep commands precise so they do not print too much\n- Do not print credentials unless there is no other way\n- Find out what kind a command is (builtin, function, alias) with type\n- Control jobs with jobs, fg and bg\n- Write conditions as [[ ]] rather than [ ]\n- Use $() rather than backticks to substitute commands\n- Start complex commands with set -e so they stop at the first error',
    inputSchema: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
          description: 'Command to be run in the terminal.',
        },
        explanation: {
          type: 'string',
          description:
            'A single sentence that says what the command does; the user is shown it before the command runs.',
        },
        isBackground: {
          type: 'boolean',
          description:
            'Whether the command starts a process that keeps running in the background. If true, the command runs in the background and its output is not shown to you. If false, the tool call waits until the command ends and then gives you its output. Background processes include a build in watch mode or a server being started. Check on a background process later with get_terminal_output.',
        },
      },
      required: ['command', 'explanation', 'isBackground'],
    },
  },
  {
    name: 'get_terminal_output',
    description: 'Return the output of a terminal command that run_in_terminal started before',
    inputSchema: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
          description: 'ID of the terminal to look at.',
        },
      },
      required: ['id'],
    },
  },
  {
    name: 'terminal_last_command',
    description: 'Return the command last run in the active terminal.',
    inputSchema: {
      type: 'object',
      properties: {},
    },
  },
  {
    name: 'terminal_selection',
    description: 'Return what is selected in the active terminal.',
    inputSchema: {
      type: 'object',
      properties: {},
    },
  },
  {
    name: 'create_and_run_task',
    description:
      "Creates a build, run or custom task for the workspace and runs it, writing or extending a tasks.json file to suit the project's structure (for example its package.json or README.md). Use it when the user asks to build, run or launch and has no tasks.json file, or when the user asks for a task to be created or added.",
    inputSchema: {
      type: 'object',
      properties: {
        workspaceFolder: {
          type: 'string',
          description: 'Absolute path of the workspace folder in which the tasks.json file is to be created.',
        },
        task: {
          type: 'object',
          description: 'Task to be added to the new tasks.json file.',
          properties: {
            label: {
              type: 'string',
              description: "The task's label text.",
            },
            type: {
              type: 'string',
              description: "Kind of task. 'shell' is the one value that is supported.",
              enum: ['shell'],
            },
            command: {
              type: 'string',
              description:
                'Shell command that the task runs. Put here the commands that build the application or run it.',
            },
            args: {
              type: 'array',
              description: 'Arguments to be given to the command.',
              items: {
                type: 'string',
              },
            },
            isBackground: {
              type: 'boolean',
              description:
                "Whether the task runs in the background, so neither the UI nor other tasks wait on it. Set it to true for processes that run a long time, such as watch tasks or servers, which must keep going without the user's attention. When false, the terminal is blocked until the task ends.",
            },
            problemMatcher: {
              type: 'array',
              description:
                "Problem matcher that reads the task's output for errors and warnings. It can be a built-in matcher such as '$tsc' (the TypeScript compiler), '$eslint-stylish' or '$gcc', or a custom pattern defined in tasks.json. With it VS Code can list the errors in the Problems panel and let the user jump straight to where they are.",
              items: {
                type: 'string',
              },
            },
            group: {
              type: 'string',
              description: 'Group that the task is a member of.',
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
      'Runs a task of VS Code.\n\n- When a suitable task for building or running the code exists, run that task with this tool rather than with the run_in_terminal tool.\n- Before running tests or executing code, check that any suitable build or watch task is already running.\n- When the user asks for a task to be run, use this tool for it.',
    inputSchema: {
      type: 'object',
      properties: {
        workspaceFolder: {
          type: 'string',
          description: 'Path of the workspace folder that has the task',
        },
        id: {
          type: 'string',
          description: 'ID of task to run.',
        },
      },
      required: ['workspaceFolder', 'id'],
    },
  },
  {
    name: 'get_task_output',
    description: "Return a task's output",
    inputSchema: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
          description: 'ID of the task whose output is wanted.',
        },
        workspaceFolder: {
          type: 'string',
          description: 'Path of the workspace folder that has the task',
        },
      },
      required: ['id', 'workspaceFolder'],
    },
  },
  {
    name: 'manage_todo_list',
    description:
      'Keep a structured todo list to follow progress and plan the work over the whole coding session. Use it OFTEN so the tasks stay visible and are planned properly.\n\nUse it when:\n- The work is complex, has several steps, and needs planning and tracking\n- The user gives several tasks or requests (numbered or separated by commas)\n- New instructions arrive that need several steps\n- You are ABOUT to begin any todo (set it to in-progress)\n- You have JUST finished a todo (set it to completed, one at a time)\n- You are splitting a large task into smaller steps you can act on\n- You want the user to see your progress and your plan\n\nDo NOT use it for:\n- One simple task that can be done in a single step\n- Requests that are only conversation or asking for information\n- Merely reading files or running simple searches\n\nIMPORTANT order of work:\n1. Plan by writing a todo list of precise items you can act on\n2. Set ONE todo to in-progress before you begin on it\n3. Do the work for that todo\n4. Set that todo to completed AT ONCE\n5. Go on to the next todo and do the same\n\nStates of a todo:\n- not-started: not begun yet\n- in-progress: being worked on now (only ONE at a time)\n- completed: entirely done, with nothing blocking it\n\nIMPORTANT: set a todo to completed as soon as it is done. Never mark several as completed together.',
    inputSchema: {
      type: 'object',
      properties: {
        todoList: {
          type: 'array',
          description: 'Every todo item as one complete array. It must hold ALL items, old and new alike.',
          items: {
            type: 'object',
            properties: {
              id: {
                type: 'number',
                description: 'Unique id of the todo. Number the todos in sequence, beginning at 1.',
              },
              title: {
                type: 'string',
                description: 'Short todo label (3-7 words) naming an action. Shown in the UI.',
              },
              description: {
                type: 'string',
                description:
                  'Fuller context, requirements or notes on how to do it. Give file paths, particular methods or acceptance criteria.',
              },
              status: {
                type: 'string',
                enum: ['not-started', 'in-progress', 'completed'],
                description:
                  'not-started: not begun yet | in-progress: being worked on (at most 1) | completed: entirely done, nothing blocking',
              },
            },
            required: ['id', 'title', 'description', 'status'],
          },
        },
        operation: {
          type: 'string',
          enum: ['write', 'read'],
          description:
            'write: replace the whole todo list with the new content. read: return the current todo list. When writing, ALWAYS give the full list; partial updates do not work.',
        },
      },
      required: ['operation'],
    },
  },
  {
    name: 'runTests',
    description:
      'Runs the unit tests in the given files. Use it when the user asks for tests to be run or when you want unit tests to check your changes, and choose it over the terminal tool. Wherever you can, give the `files` paths that hold the relevant unit tests, so that test runs are not needlessly long. The tool reports the results of the run in detail. Set mode="coverage" to gather coverage as well, and give coverageFiles if you want the report to focus on some files.',
    inputSchema: {
      type: 'object',
      properties: {
        files: {
          type: 'array',
          items: {
            type: 'string',
          },
          description: 'Absolute paths of the test files to run. When left out, every test file is run.',
        },
        testNames: {
          type: 'array',
          items: {
            type: 'string',
          },
          description:
            "Names of the tests to run. Depending on the context, a test's name in code may be a string or the name of the function or class that holds the test cases. When left out, every test in the files is run.",
        },
        mode: {
          type: 'string',
          enum: ['run', 'coverage'],
          description: 'How to run: "run" (the default) runs the tests as usual, "coverage" gathers coverage.',
        },
        coverageFiles: {
          type: 'array',
          items: {
            type: 'string',
          },
          description:
            'With mode="coverage": absolute paths of the files to give detailed coverage for. Only the first file that matches is summarized.',
        },
      },
    },
  },
  {
    name: 'runSubagent',
    description:
      'Starts a new agent that works through a complex task of several steps by itself. It does well at researching hard questions, finding code and carrying out tasks that take several steps. When you are looking for a keyword or a file and doubt that you will find the right match within a few attempts, let this agent do the search for you.\n\n- Agents neither run asynchronously nor in the background; you wait until the agent has its result.\n- When it finishes, the agent sends you back one single message. The user cannot see what the agent returns, so to show it to the user, send the user a text message with a short summary of the result.\n- Every call to an agent starts with no state. You cannot send the agent further messages, and the agent cannot talk to you except through its final report. So your prompt must describe the task in great detail for the agent to carry out on its own, and must say exactly which information the agent is to give back in its final and only message to you.\n- What the agent reports can usually be trusted\n- Tell the agent plainly whether you want it to write code or only to research (searching, reading files, fetching web pages and so on), since it does not know what the user intends',
    inputSchema: {
      type: 'object',
      properties: {
        prompt: {
          type: 'string',
          description: 'Full description of the task that the agent is to carry out',
        },
        description: {
          type: 'string',
          description: 'Short (3-5 word) description of the task',
        },
      },
      required: ['prompt', 'description'],
    },
  },
  {
    name: 'vscode_askQuestions',
    description:
      'Put one or more questions to the user to settle requirements or learn preferences before going on. Use it when the task is unclear and guessing wrong would waste effort. A question may offer options, and the user may also reply in their own words.',
    inputSchema: {
      type: 'object',
      properties: {
        questions: {
          type: 'array',
          description: 'Questions to be asked.',
          items: {
            type: 'object',
            properties: {
              header: {
                type: 'string',
                description: 'Brief label for the question.',
              },
              question: {
                type: 'string',
                description: 'Text of question.',
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
                description: 'Whether more than one option may be picked.',
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
      'Shows a website or opens a URL in the Simple Browser inside the editor. Handy for a quick look at sites served locally, demos or resources without leaving the editor.',
    inputSchema: {
      type: 'object',
      properties: {
        url: {
          type: 'string',
          description:
            'URL of the website to show or open in the Simple Browser inside the editor. It must be an http or https URL.',
        },
      },
      required: ['url'],
    },
  },
];
