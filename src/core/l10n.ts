/** A value that fills a `{0}`-style placeholder. */
export type L10nArg = string | number | boolean;

/** Translates an English message with `{0}`-style placeholders and fills them in. */
export type Translator = (message: string, args: L10nArg[]) => string;

/** Fills `{0}`, `{1}`… with the arguments; placeholders without an argument stay as they are. */
export function formatMessage(message: string, args: L10nArg[]): string {
  return message.replace(/\{(\d+)\}/g, (match, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? match : String(value);
  });
}

let translator: Translator = formatMessage;

/**
 * The core's messages in the user's language. The core cannot import `vscode`, so it writes its user-facing
 * sentences in English through this `l10n.t`, with `{0}`-style placeholders, as the host does with
 * `vscode.l10n.t`; the host plugs `vscode.l10n.t` in at activation (`l10n.use`). Until then, and in plain Node
 * (unit tests), the English text is formatted as is. Both kinds of call land in `l10n/bundle.l10n.json`.
 */
export const l10n = {
  t(message: string, ...args: L10nArg[]): string {
    return translator(message, args);
  },
  /** Routes every later `l10n.t` through `translate` (the host passes `vscode.l10n.t`). */
  use(translate: Translator): void {
    translator = translate;
  },
};
