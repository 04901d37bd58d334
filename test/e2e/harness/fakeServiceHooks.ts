import * as assert from 'node:assert/strict';
import { startFakeService, type FakeService, type FakeServiceOptions } from '../../fakeService/fakeService';

/**
 * Starts a fake service before the suite's tests (call it inside `describe`, before `useWorkbench` so the service
 * runs when the workbench starts) and closes it after them. Returns the running service; asking for it before it
 * started fails the test that asks.
 */
export function useFakeService(options: FakeServiceOptions): () => FakeService {
  let fake: FakeService | undefined;
  before(async () => {
    fake = await startFakeService(options);
  });
  after(async () => {
    await fake?.close();
  });
  return () => {
    assert.ok(fake, 'the fake service did not start');
    return fake;
  };
}
