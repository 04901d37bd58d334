/** What the prompts and the code-block extraction know about a language. */
export interface LanguageInfo {
  /** The name people use ("TypeScript"). */
  name: string;
  /** Info strings a fenced block of this language may carry, lower case; the first is the one we write. */
  fences: readonly string[];
  /** How documentation comments look in this language, said to the model. */
  docStyle: string;
  /** The test framework to suggest when nothing in the code says otherwise. */
  testFramework?: string;
}

const JSDOC = 'JSDoc `/** … */` comments directly above each declaration, with `@param`, `@returns` and `@throws` tags';
const SLASH3 = '`///` XML documentation comments (`<summary>`, `<param>`, `<returns>`) directly above each member';

const TABLE: Record<string, LanguageInfo> = {
  typescript: { name: 'TypeScript', fences: ['ts', 'typescript', 'tsx', 'mts', 'cts'], docStyle: JSDOC },
  typescriptreact: { name: 'TypeScript React', fences: ['tsx', 'typescript', 'ts'], docStyle: JSDOC },
  javascript: { name: 'JavaScript', fences: ['js', 'javascript', 'jsx', 'mjs', 'cjs', 'node'], docStyle: JSDOC },
  javascriptreact: { name: 'JavaScript React', fences: ['jsx', 'javascript', 'js'], docStyle: JSDOC },
  python: {
    name: 'Python',
    fences: ['python', 'py', 'python3'],
    docStyle: 'PEP 257 docstrings (triple double quotes) as the first statement inside each function, class and module',
    testFramework: 'pytest',
  },
  java: { name: 'Java', fences: ['java'], docStyle: 'Javadoc `/** … */` comments with `@param`, `@return`, `@throws`' },
  kotlin: {
    name: 'Kotlin',
    fences: ['kotlin', 'kt', 'kts'],
    docStyle: 'KDoc `/** … */` comments with `@param`, `@return`',
  },
  csharp: { name: 'C#', fences: ['csharp', 'cs', 'c#'], docStyle: SLASH3 },
  fsharp: { name: 'F#', fences: ['fsharp', 'fs', 'f#'], docStyle: SLASH3 },
  go: {
    name: 'Go',
    fences: ['go', 'golang'],
    docStyle: 'Go doc comments: `//` lines starting with the name they document',
  },
  rust: {
    name: 'Rust',
    fences: ['rust', 'rs'],
    docStyle: '`///` doc comments in Markdown, with `# Errors`, `# Panics` and `# Examples` sections where they apply',
  },
  c: { name: 'C', fences: ['c', 'h'], docStyle: 'Doxygen `/** … */` comments with `@brief`, `@param`, `@return`' },
  cpp: {
    name: 'C++',
    fences: ['cpp', 'c++', 'cc', 'cxx', 'hpp', 'h'],
    docStyle: 'Doxygen `/** … */` comments with `@brief`, `@param`, `@return`',
  },
  php: { name: 'PHP', fences: ['php'], docStyle: 'PHPDoc `/** … */` comments with `@param`, `@return`, `@throws`' },
  ruby: { name: 'Ruby', fences: ['ruby', 'rb'], docStyle: 'YARD `#` comments with `@param` and `@return` tags' },
  swift: {
    name: 'Swift',
    fences: ['swift'],
    docStyle: '`///` Markdown doc comments with `- Parameters:` and `- Returns:`',
  },
  dart: { name: 'Dart', fences: ['dart'], docStyle: '`///` doc comments' },
  scala: { name: 'Scala', fences: ['scala'], docStyle: 'Scaladoc `/** … */` comments' },
  lua: { name: 'Lua', fences: ['lua'], docStyle: 'LuaDoc `---` comments with `@param` and `@return`' },
  shellscript: {
    name: 'Shell script',
    fences: ['bash', 'sh', 'shell', 'zsh', 'shellscript'],
    docStyle: '`#` comments above each function describing arguments, output and exit status',
  },
  powershell: {
    name: 'PowerShell',
    fences: ['powershell', 'ps1', 'pwsh'],
    docStyle: 'comment-based help `<# .SYNOPSIS … #>`',
  },
  sql: { name: 'SQL', fences: ['sql'], docStyle: '`--` comments above each statement' },
  html: { name: 'HTML', fences: ['html', 'htm', 'xhtml'], docStyle: '`<!-- … -->` comments' },
  css: { name: 'CSS', fences: ['css'], docStyle: '`/* … */` comments' },
  scss: { name: 'SCSS', fences: ['scss'], docStyle: '`///` SassDoc comments' },
  json: {
    name: 'JSON',
    fences: ['json', 'jsonc'],
    docStyle: 'no comments (JSON has none); describe it in prose instead',
  },
  jsonc: { name: 'JSON with comments', fences: ['jsonc', 'json'], docStyle: '`//` comments' },
  yaml: { name: 'YAML', fences: ['yaml', 'yml'], docStyle: '`#` comments' },
  markdown: { name: 'Markdown', fences: ['markdown', 'md'], docStyle: 'Markdown prose' },
  r: { name: 'R', fences: ['r'], docStyle: "roxygen2 `#'` comments" },
  perl: { name: 'Perl', fences: ['perl', 'pl'], docStyle: 'POD blocks' },
  elixir: { name: 'Elixir', fences: ['elixir', 'ex', 'exs'], docStyle: '`@doc` attributes' },
  haskell: { name: 'Haskell', fences: ['haskell', 'hs'], docStyle: 'Haddock `-- |` comments' },
  plaintext: { name: 'plain text', fences: ['text', 'txt', 'plaintext'], docStyle: 'plain prose' },
};

const TEST_FRAMEWORKS: Record<string, string> = {
  typescript: 'the test framework the surrounding code uses (Mocha, Jest or Vitest), else Mocha with node:assert',
  javascript: 'the test framework the surrounding code uses (Mocha, Jest or Vitest), else node:test with node:assert',
  java: 'JUnit 5',
  kotlin: 'JUnit 5 with kotlin.test',
  csharp: 'xUnit',
  go: 'the standard testing package, table-driven',
  rust: 'a `#[cfg(test)] mod tests` module with `#[test]` functions',
  c: 'a small assert-based test program',
  cpp: 'GoogleTest',
  php: 'PHPUnit',
  ruby: 'RSpec',
  swift: 'XCTest',
  dart: 'package:test',
};

/** What is known about a VS Code language id; unknown ids get a neutral description built from the id. */
export function languageInfo(languageId: string): LanguageInfo {
  const id = languageId.toLowerCase();
  const known = TABLE[id];
  if (known) {
    return { ...known, testFramework: known.testFramework ?? TEST_FRAMEWORKS[id] ?? TEST_FRAMEWORKS[baseOf(id)] };
  }
  return {
    name: languageId || 'plain text',
    fences: id ? [id] : ['text'],
    docStyle: 'the documentation-comment style that is idiomatic for this language',
  };
}

/** The fence info string to write for a language ("ts" for typescript). */
export function fenceTag(languageId: string): string {
  return languageInfo(languageId).fences[0];
}

/** Whether a fenced block's info string names the language (the first word, case-insensitive). */
export function fenceMatches(info: string, languageId: string): boolean {
  const word = info
    .trim()
    .split(/[\s{,]/)[0]
    .toLowerCase();
  if (!word) {
    return false;
  }
  return word === languageId.toLowerCase() || languageInfo(languageId).fences.includes(word);
}

function baseOf(id: string): string {
  return id.replace(/react$/, '');
}
