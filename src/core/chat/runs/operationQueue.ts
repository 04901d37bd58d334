/**
 * Runs operations one at a time, in the order asked, each once the ones before it have settled (whether they
 * succeeded or not) and once `ready` has settled. The chat's operations go through one, so a switch cannot read a
 * conversation a send is still changing, and a prompt sent during a switch lands in the conversation switched to;
 * the conversation store's writes of one window go through another.
 */
export class OperationQueue {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly ready: Promise<void> = Promise.resolve()) {}

  /** Runs `operation` after every operation asked for before it; settles with its result. */
  run<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.tail.then(async () => {
      await this.ready;
      return operation();
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Settles once every operation asked for so far has settled. */
  async idle(): Promise<void> {
    await this.tail;
  }
}
