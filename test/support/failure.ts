import { TaskwireError } from '../../src/client/errors.js';

/** The TaskwireError a promise rejects with (the test fails if it resolves or throws anything else). */
export async function failure(promise: Promise<unknown>): Promise<TaskwireError> {
  try {
    await promise;
  } catch (error) {
    if (TaskwireError.isInstance(error)) return error;
    throw new Error(`expected a TaskwireError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected the call to reject');
}
