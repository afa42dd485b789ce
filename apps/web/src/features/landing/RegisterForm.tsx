import { useQuery } from '@tanstack/react-query';
import { AccountMessages, RegisterRequest } from '@tonearm/contract';
import { useState, type SubmitEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { describeError, isApiError } from '../../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../../lib/field-errors.js';
import { Paths } from '../../lib/paths.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { useAuth } from '../../shell/auth/useAuth.js';
import { AccountFields, type AccountField as Field, type AccountValues } from '../../ui/AccountFields.js';
import { authQueries } from './queries.js';
import '../../ui/buttons.css';
import '../../ui/forms.css';
import '../../ui/notice.css';

/** The `?setup=` code of the link the server prints while it has no administrator. */
export function useSetupCode(): string | undefined {
  const [params] = useSearchParams();
  const code = params.get('setup')?.trim();
  return code === undefined || code === '' ? undefined : code;
}

/**
 * The sign-up tab: the form, or a word that registration is closed. With a setup code (or from the server's own
 * machine while it has no administrator) the form says the new account will administer the server.
 */
export function RegisterPanel() {
  const setupCode = useSetupCode();
  const options = useQuery(authQueries.options());
  if (options.isPending) return <p className="muted">Loading…</p>;
  const claims = setupCode !== undefined || options.data?.becomesAdministrator === true;
  if (options.data?.registration === 'closed' && !claims) {
    return (
      <p className="notice" role="note" data-testid="registration-closed">
        {AccountMessages.registrationClosed}
      </p>
    );
  }
  return <RegisterForm setupCode={setupCode} claims={claims} />;
}

/** `auth.register`, then an automatic login and /dashboard. */
export function RegisterForm({ setupCode, claims = false }: { setupCode?: string | undefined; claims?: boolean }) {
  const { register } = useAuth();
  const alerts = useAlerts();
  const navigate = useNavigate();
  const [values, setValues] = useState<AccountValues>({ username: '', email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const parsed = RegisterRequest.safeParse(setupCode === undefined ? values : { ...values, setupCode });
    setErrors(fieldErrorsOf<Field>(parsed));
    setFailure(null);
    if (!parsed.success) return;
    setBusy(true);
    try {
      const message = await register(parsed.data);
      alerts.success(message);
      await navigate(Paths.dashboard);
    } catch (error) {
      if (isApiError(error) && error.field && error.field in values) {
        setErrors({ [error.field]: error.message });
      } else {
        setFailure(isApiError(error) ? error.message : (describeError(error) ?? UiMessages.registerFailed));
      }
      setBusy(false);
    }
  };

  return (
    <form className="form" aria-label="Sign up" noValidate onSubmit={onSubmit}>
      {claims && (
        <p className="notice" role="note" data-testid="will-administer">
          {AccountMessages.willAdminister}
        </p>
      )}
      <AccountFields
        values={values}
        errors={errors}
        onChange={setValues}
        autoComplete="own"
        passwordHint="At least 8 characters"
      />
      {failure && (
        <p className="form__failure" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className="button button--primary button--block" disabled={busy}>
        {busy ? 'Creating account…' : 'Sign up'}
      </button>
    </form>
  );
}
