export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** The part of a zod safeParse result read here (the web app uses zod only through the contract). */
interface ParseOutcome {
  success: boolean;
  error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } | undefined;
}

/** First message per field from a contract schema: the same rules the server applies. */
export function fieldErrorsOf<K extends string>(result: ParseOutcome): FieldErrors<K> {
  const errors: FieldErrors<K> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in errors)) errors[field as K] = issue.message;
  }
  return errors;
}
