import * as assert from 'node:assert/strict';
import { ServiceError } from '../../src/core/service/errors';

/** Awaits `promise`, which must reject with a ServiceError; returns that error for the test to look at. */
export async function expectServiceError(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a failure');
}
