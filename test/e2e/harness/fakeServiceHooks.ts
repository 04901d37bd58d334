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
 * runs when the workbench starts) and closes it after them. Returns the running service; asking for it before it
 * started fails the test that asks.
 *
 * Suites of one process that ask for the same options share one service (and so its URL, which lets them share a
 * workbench, see `useWorkbench`): it is left running after a suite and reset (no queued fault, no recorded request)
 * for the next.
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
