import * as assert from 'node:assert/strict';
import { startFakeService, type FakeService, type FakeServiceOptions } from '../../fakeService/fakeService';
import { atRunEnd } from './runEnd';

/** The service a suite left running for the next suite of this process that asks for the same one. */
let parked: { key: string; fake: FakeService } | undefined;

async function closeParked(): Promise<void> {
  const left = parked;
  parked = undefined;
  await left?.fake.close();
}

atRunEnd(closeParked);

/**
 * Starts a fake service before the suite's tests (call it inside `describe`, before `useWorkbench` so the service
 * runs when the workbench starts). Returns the running service; asking for it before it started fails the test that
 * asks.
 *
 * After the suite the service is left running: the next suite of the process that asks for the same options gets it
 * reset (no queued fault, no recorded request), and with it the same URL, which lets them share a workbench (see
 * `useWorkbench`); one that asks for other options closes it, and the run's end closes the last.
 */
export function useFakeService(options: FakeServiceOptions): () => FakeService {
  let fake: FakeService | undefined;
  const key = JSON.stringify(options);
  before(async () => {
    const left = parked;
    parked = undefined;
    if (left?.key === key) {
      left.fake.reset();
      fake = left.fake;
      return;
    }
    await left?.fake.close();
    fake = await startFakeService(options);
  });
  after(() => {
    if (fake) {
      parked = { key, fake };
      fake = undefined;
    }
  });
  return () => {
    assert.ok(fake, 'the fake service did not start');
    return fake;
  };
}
