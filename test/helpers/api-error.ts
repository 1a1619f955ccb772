import { ApiError } from '../../src/common/errors/api-error';

/** The ApiError `fn` throws (anything else is rethrown); fails when it throws nothing. */
export function refusalOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('did not throw');
}
