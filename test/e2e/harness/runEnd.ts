/** What to do once every suite of a mocha run has ended (close what suites left open for the next one). */
const hooks: (() => Promise<void>)[] = [];

/** Registers `hook` to run when the run ends, after every suite, in the order registered. */
export function atRunEnd(hook: () => Promise<void>): void {
  hooks.push(hook);
}

/** Runs the registered hooks (the mocha runner calls it as the root suite's last `after`). */
export async function runEnd(): Promise<void> {
  for (const hook of hooks.splice(0)) {
    await hook();
  }
}
