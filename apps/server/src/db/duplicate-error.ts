/**
 * A write refused because another row already holds a unique value. Repositories throw it in place of the driver's
 * unique-violation error (db/errors.ts); `field` names the value in the domain's words ('audio', 'name', 'email',
 * 'username'), and the service answers it as it answers its own pre-check.
 */
export class DuplicateError<F extends string = string> extends Error {
  constructor(readonly field: F) {
    super(`Duplicate ${field}`);
    this.name = 'DuplicateError';
  }
}

/** Whether `error` is a DuplicateError for `field`. */
export function isDuplicate<F extends string>(error: unknown, field: F): error is DuplicateError<F> {
  return error instanceof DuplicateError && error.field === field;
}
