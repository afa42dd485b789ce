import { useState, type SubmitEvent } from 'react';
import { describeError, isApiError } from '../../lib/api-client.js';
import type { FieldErrors } from '../../lib/field-errors.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAuth } from '../../shell/auth/useAuth.js';
import { FormField } from '../../ui/FormField.js';
import { useLandingHost } from './landing-host.js';
import type * as Validate from './validate.js';
import '../../ui/buttons.css';
import '../../ui/forms.css';

type Field = 'username' | 'password';

/** `auth.login`; success goes to /dashboard. */
export function LoginForm() {
  const { login } = useAuth();
  const host = useLandingHost();
  const [values, setValues] = useState({ username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setFailure(null);
    let checked: ReturnType<typeof Validate.validateLogin>;
    try {
      checked = (await import('./validate.js')).validateLogin(values);
    } catch (error) {
      // The checks' code could not be fetched (offline): say so instead of doing nothing.
      setFailure(describeError(error) ?? UiMessages.loginFailed);
      return;
    }
    const { parsed, errors: found } = checked;
    setErrors(found);
    if (!parsed.success) return;
    setBusy(true);
    try {
      await login(parsed.data);
      await host.goToDashboard();
    } catch (error) {
      setFailure(isApiError(error) ? error.message : (describeError(error) ?? UiMessages.loginFailed));
      setBusy(false);
    }
  };

  return (
    <form className="form" aria-label="Log in" noValidate onSubmit={onSubmit}>
      <FormField label="Username or email" error={errors.username}>
        {(control) => (
          <input
            {...control}
            className="input"
            name="username"
            autoComplete="username"
            required
            value={values.username}
            onChange={(event) => {
              setValues({ ...values, username: event.target.value });
            }}
          />
        )}
      </FormField>
      <FormField label="Password" error={errors.password}>
        {(control) => (
          <input
            {...control}
            className="input"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={values.password}
            onChange={(event) => {
              setValues({ ...values, password: event.target.value });
            }}
          />
        )}
      </FormField>
      {failure && (
        <p className="form__failure" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className="button button--primary button--block" disabled={busy}>
        {busy ? 'Logging in…' : 'Log in'}
      </button>
    </form>
  );
}
