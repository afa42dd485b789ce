import { AccountMessages, CreateUserRequest } from '@tonearm/contract';
import { useState, type SubmitEvent } from 'react';
import { describeError, isApiError } from '../../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../../lib/field-errors.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { Dialog } from '../../ui/Dialog.js';
import { FormField } from '../../ui/FormField.js';
import {
  ACCOUNT_FIELDS,
  AccountFields,
  type AccountField as Field,
  type AccountValues,
} from '../../ui/AccountFields.js';
import { useCreateUser } from './mutations.js';
import '../../ui/Dialog.css';
import '../../ui/buttons.css';
import '../../ui/forms.css';

/** `users.create`: an administrator opens an account for someone (the way in when REGISTRATION=closed). */
export function AddUserDialog({ onClose }: { onClose: () => void }) {
  const [values, setValues] = useState<AccountValues>({ username: '', email: '', password: '' });
  const [role, setRole] = useState<'USER' | 'ADMIN'>('USER');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const create = useCreateUser();
  const alerts = useAlerts();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const parsed = CreateUserRequest.safeParse({ ...values, role });
    setErrors(fieldErrorsOf<Field>(parsed));
    if (!parsed.success) return;
    create.mutate(parsed.data, {
      onSuccess: (created) => {
        alerts.success(AccountMessages.userCreated(created.username));
        onClose();
      },
      onError: (error) => {
        if (isApiError(error) && ACCOUNT_FIELDS.includes(error.field as Field)) {
          setErrors({ [error.field as Field]: error.message });
        } else {
          alerts.error(AccountMessages.failedToCreateUser, describeError(error));
        }
      },
    });
  };

  return (
    <Dialog title="Add user" onClose={onClose} size="sm">
      <form className="form" aria-label="Add user" noValidate onSubmit={onSubmit}>
        <AccountFields
          values={values}
          errors={errors}
          onChange={setValues}
          autoComplete="off"
          passwordHint="At least 8 characters; tell them to change it"
        />
        <FormField label="Role">
          {(control) => (
            <select
              {...control}
              className="select"
              name="role"
              value={role}
              onChange={(event) => {
                setRole(event.target.value === 'ADMIN' ? 'ADMIN' : 'USER');
              }}
            >
              <option value="USER">User</option>
              <option value="ADMIN">Admin</option>
            </select>
          )}
        </FormField>
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create account'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
