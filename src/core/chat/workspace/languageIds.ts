/** Fence names that differ from VS Code's language identifiers. */
const ALIASES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  jsx: 'javascriptreact',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  python3: 'python',
  sh: 'shellscript',
  bash: 'shellscript',
  zsh: 'shellscript',
  shell: 'shellscript',
  console: 'shellscript',
  ps1: 'powershell',
  pwsh: 'powershell',
  yml: 'yaml',
  md: 'markdown',
  rs: 'rust',
  golang: 'go',
  'c++': 'cpp',
  cc: 'cpp',
  hpp: 'cpp',
  h: 'c',
  cs: 'csharp',
  'c#': 'csharp',
  kt: 'kotlin',
  rb: 'ruby',
  htm: 'html',
  jsonc: 'jsonc',
  json5: 'json',
  text: 'plaintext',
  txt: 'plaintext',
  plain: 'plaintext',
  dockerfile: 'dockerfile',
  docker: 'dockerfile',
};

/** The VS Code language id for a Markdown fence's info string ("ts" → "typescript"); plaintext when none. */
export function languageIdForFence(info: string | undefined): string {
  const name = (info ?? '').trim().split(/\s+/)[0].toLowerCase();
  if (!name) {
    return 'plaintext';
  }
  return ALIASES[name] ?? (/^[a-z0-9_+#.-]{1,32}$/.test(name) ? name : 'plaintext');
}

/** The fence name for a VS Code language id (used when a selection goes to the chat): the id itself. */
export function fenceForLanguageId(languageId: string): string {
  return languageId === 'plaintext' ? '' : languageId;
}
