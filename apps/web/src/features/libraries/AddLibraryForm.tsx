import { CreateLibraryRequest, LibraryClientMessages as Texts } from '@tonearm/contract';
import { useState, type SubmitEvent } from 'react';
import { describeError, isApiError } from '../../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../../lib/field-errors.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { FormField } from '../../ui/FormField.js';
import { PlusIcon } from '../../ui/icons.js';
import { useCreateLibrary } from './mutations.js';
import '../../ui/buttons.css';
import '../../ui/forms.css';
import './Libraries.css';

type Field = 'path' | 'name';
const FIELDS: readonly string[] = ['path', 'name'] satisfies Field[];

/**
 * `libraries.create`: a folder on the server and an optional name. The contract's rules are checked first; what only
 * the server knows (no folder there, not readable, already a library) comes back under its field.
 */
export function AddLibraryForm({ label = Texts.addTitle }: { label?: string }) {
  const [values, setValues] = useState({ path: '', name: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const create = useCreateLibrary();
  const alerts = useAlerts();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const name = values.name.trim();
    const parsed = CreateLibraryRequest.safeParse(name === '' ? { path: values.path } : { path: values.path, name });
    setErrors(fieldErrorsOf<Field>(parsed));
    if (!parsed.success) return;
    create.mutate(parsed.data, {
      onSuccess: (library) => {
        setValues({ path: '', name: '' });
        alerts.success(Texts.libraryAdded(library.name));
      },
      onError: (error) => {
        if (isApiError(error) && error.field !== undefined && FIELDS.includes(error.field)) {
          setErrors({ [error.field]: error.message });
        } else {
          alerts.error(Texts.failedToAdd, describeError(error));
        }
      },
    });
  };

  return (
    <form className="form library-add" aria-label={label} noValidate onSubmit={onSubmit}>
      <div className="library-add__fields">
        <FormField label={Texts.pathLabel} error={errors.path} hint={Texts.pathHint}>
          {(control) => (
            <input
              {...control}
              className="input library-add__path"
              name="path"
              required
              autoComplete="off"
              spellCheck={false}
              placeholder="/srv/music"
              value={values.path}
              onChange={(event) => {
                setValues({ ...values, path: event.target.value });
              }}
            />
          )}
        </FormField>
        <FormField label={Texts.nameLabel} error={errors.name} hint={Texts.nameHint} optional>
          {(control) => (
            <input
              {...control}
              className="input"
              name="name"
              autoComplete="off"
              value={values.name}
              onChange={(event) => {
                setValues({ ...values, name: event.target.value });
              }}
            />
          )}
        </FormField>
      </div>
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          <PlusIcon size={18} /> {create.isPending ? Texts.adding : Texts.add}
        </button>
      </div>
    </form>
  );
}
