/**
 * The extension's settings a repository may not set: where requests go, which billed model is used, what the user
 * is shown it costs, what is sent. They are application-scoped, so VS Code ignores them in a workspace's
 * `.vscode/settings.json` or `.code-workspace` file; this finds those a workspace file still holds, to tell the
 * user once that they are ignored and where to set them now.
 */
export const USER_ONLY_SETTINGS: readonly string[] = [
  'alphaAxo.baseUrl',
  'alphaAxo.chat.model',
  'alphaAxo.chat.inrPerMillionInputTokens',
  'alphaAxo.chat.inrPerMillionOutputTokens',
  'alphaAxo.chat.groundWithAxo',
  'alphaAxo.chat.toolCallsPerReply',
  'alphaAxo.encyclopedia.model',
  'alphaAxo.encyclopedia.models',
  'alphaAxo.encyclopedia.hoverLookups',
  'alphaAxo.encyclopedia.cacheTtlHours',
];

/** The text of a settings file (JSON with comments) without its comments; strings are kept as they are. */
export function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') {
        j += text[j] === '\\' ? 2 : 1;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Which of {@link USER_ONLY_SETTINGS} a workspace settings file's text sets (commented-out ones do not count). */
export function userOnlySettingsIn(text: string): string[] {
  const plain = withoutComments(text);
  return USER_ONLY_SETTINGS.filter((key) => {
    const quoted = `"${key}"`;
    for (let at = plain.indexOf(quoted); at >= 0; at = plain.indexOf(quoted, at + 1)) {
      let next = at + quoted.length;
      while (next < plain.length && ' \t\r\n'.includes(plain[next])) {
        next++;
      }
      if (plain[next] === ':') {
        return true;
      }
    }
    return false;
  });
}
