import { LoginRequest } from '@tonearm/contract';
import { useState, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { describeError, isApiError } from '../../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../../lib/field-errors.js';
import { Paths } from '../../lib/paths.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAuth } from '../../shell/auth/useAuth.js';
import { FormField } from '../../ui/FormField.js';
import '../../ui/buttons.css';
import '../../ui/forms.css';

type Field = 'username' | 'password';

/** `auth.login`; success goes to /dashboard. */
export function LoginForm() {
  const { login } = useAuth();
  const navigate = useNavigate();
  const [values, setValues] = useState({ username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const parsed = LoginRequest.safeParse(values);
    setErrors(fieldErrorsOf<Field>(parsed));
    setFailure(null);
    if (!parsed.success) return;
    setBusy(true);
    try {
      await login(parsed.data);
      await navigate(Paths.dashboard);
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
