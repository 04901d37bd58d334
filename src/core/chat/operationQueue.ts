/**
 * Runs operations one at a time, in the order asked, each once the ones before it have settled (whether they
 * succeeded or not) and once `ready` has settled. The chat's operations go through one, so a switch cannot read a
 * conversation a send is still changing, and a prompt sent during a switch lands in the conversation switched to.
 */
export class OperationQueue {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly ready: Promise<void>) {}

  /** Runs `operation` after every operation asked for before it; settles with its result. */
  run<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.tail.then(async () => {
      await this.ready;
      return operation();
    });
    this.tail = result.catch(() => undefined);
    return result;
  }
}
