/** How often a bounded wait looks again. */
const POLL_MS = 100;

/**
 * Waits until `probe` gives a value (anything but undefined) and returns it; fails after `timeoutMs` saying `what`
 * did not happen. The one bounded wait of the extension-host tests: each waits on what the product shows.
 */
export async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** {@link until} with the time before what is waited for, as the older extension-host tests call it. */
export function poll<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  return until(probe, what, timeoutMs);
}
