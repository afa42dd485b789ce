import { useQuery } from '@tanstack/react-query';
import { AccountMessages } from '@tonearm/contract';
import { useState, type SubmitEvent } from 'react';
import { describeError, isApiError } from '../../lib/api-client.js';
import type { FieldErrors } from '../../lib/field-errors.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { useAuth } from '../../shell/auth/useAuth.js';
import { AccountFields, type AccountField as Field, type AccountValues } from '../../ui/AccountFields.js';
import { useLandingHost } from './landing-host.js';
import { authQueries } from './queries.js';
import type * as Validate from './validate.js';
import '../../ui/buttons.css';
import '../../ui/forms.css';
import '../../ui/notice.css';

/**
 * The sign-up tab: the form, or a word that registration is closed. With a setup code (or from the server's own
 * machine while it has no administrator) the form says the new account will administer the server.
 */
export function RegisterPanel() {
  const { setupCode } = useLandingHost();
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
  const host = useLandingHost();
  const [values, setValues] = useState<AccountValues>({ username: '', email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setFailure(null);
    let checked: ReturnType<typeof Validate.validateRegister>;
    try {
      const { validateRegister } = await import('./validate.js');
      checked = validateRegister(setupCode === undefined ? values : { ...values, setupCode });
    } catch (error) {
      // The checks' code could not be fetched (offline): say so instead of doing nothing.
      setFailure(describeError(error) ?? UiMessages.registerFailed);
      return;
    }
    const { parsed, errors: found } = checked;
    setErrors(found);
    if (!parsed.success) return;
    setBusy(true);
    try {
      const message = await register(parsed.data);
      alerts.success(message);
      await host.goToDashboard();
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
