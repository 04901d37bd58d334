import { REDACTED } from './secretScrubber';

/*
 * Strings shaped like credentials, found without knowing them: for text that leaves the machine on a model's say
 * (a tool input), where the user's own keys are removed by name too and anything else key-like must not ride along.
 */

/** A run of the characters keys and tokens are written with (base64, base64url, hex, JWT dots). */
const TOKEN = /[\w+/=.-]{16,}/g;
/** Prefixes credentials announce themselves with: API keys, GitHub, Slack, AWS, Google, JWTs. */
const KNOWN_PREFIX = /^(?:sk|pk|rk)[-_]|^(?:ghp|gho|ghu|ghs|ghr|github_pat)_|^xox[abposr]-|^AKIA|^ASIA|^AIza|^eyJ/;
/** A PEM block's armour: what follows it is a key. */
const PEM = /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----/g;
/** Shortest run without a known prefix that counts as a key. */
const MIN_BARE_LENGTH = 24;

/** Whether one run looks like a credential: a known prefix, or long and mixing letters with digits. */
function looksLikeKey(run: string): boolean {
  if (KNOWN_PREFIX.test(run)) {
    return true;
  }
  return run.length >= MIN_BARE_LENGTH && /\d/.test(run) && /[a-z]/i.test(run);
}

/** `text` with every key-shaped run (and a PEM private key's armour) replaced by `***`. Linear time. */
export function scrubKeyShapes(text: string): string {
  return text.replace(PEM, REDACTED).replace(TOKEN, (run) => (looksLikeKey(run) ? REDACTED : run));
}
