import type { FieldErrors } from '../lib/field-errors.js';
import { TextField } from './TextField.js';

export type AccountField = 'username' | 'email' | 'password';
export const ACCOUNT_FIELDS: readonly AccountField[] = ['username', 'email', 'password'];
export type AccountValues = Record<AccountField, string>;

interface AccountFieldsProps {
  values: AccountValues;
  errors: FieldErrors<AccountField>;
  onChange: (values: AccountValues) => void;
  /** Autofill for username and email: the browser's own ('username', 'email'), or 'off' for someone else's account. */
  autoComplete: 'own' | 'off';
  /** The hint under the password field. */
  passwordHint: string;
}

/** Username, email and password of a new account: the sign-up form and an administrator's "Add user". */
export function AccountFields({ values, errors, onChange, autoComplete, passwordHint }: AccountFieldsProps) {
  const field = (name: AccountField, label: string, type: string, complete: string, hint?: string) => (
    <TextField
      label={label}
      error={errors[name]}
      hint={hint}
      name={name}
      type={type}
      autoComplete={complete}
      required
      value={values[name]}
      onValue={(value) => {
        onChange({ ...values, [name]: value });
      }}
    />
  );
  const own = autoComplete === 'own';
  return (
    <>
      {field('username', 'Username', 'text', own ? 'username' : 'off', 'Letters, digits, dot, dash and underscore')}
      {field('email', 'Email', 'email', own ? 'email' : 'off')}
      {field('password', 'Password', 'password', 'new-password', passwordHint)}
    </>
  );
}
