// The landing forms' checks: the contract's schemas (the rules the server applies). Loaded when a form is first
// submitted, so zod is not part of the signed-out page's first load.
import { LoginRequest, RegisterRequest } from '@tonearm/contract';
import { fieldErrorsOf } from '../../lib/field-errors.js';

export function validateLogin(values: unknown) {
  const parsed = LoginRequest.safeParse(values);
  return { parsed, errors: fieldErrorsOf<'username' | 'password'>(parsed) };
}

export function validateRegister(values: unknown) {
  const parsed = RegisterRequest.safeParse(values);
  return { parsed, errors: fieldErrorsOf<'username' | 'email' | 'password'>(parsed) };
}
