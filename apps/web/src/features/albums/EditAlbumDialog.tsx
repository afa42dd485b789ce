import { AlbumEditFields, type Album } from '@tonearm/contract';
import { useState, type SubmitEvent } from 'react';
import { describeError, isApiError } from '../../lib/api-client.js';
import { fieldErrorsOf, type FieldErrors } from '../../lib/field-errors.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { Dialog } from '../../ui/Dialog.js';
import { FormField } from '../../ui/FormField.js';
import { useUpdateAlbum } from './mutations.js';
import '../../ui/Dialog.css';
import '../../ui/buttons.css';
import '../../ui/forms.css';

type Field = 'name' | 'year';
const FIELDS: readonly string[] = ['name', 'year'];

/** Admins: an album's name and year (`albums.update`); an empty year is "unknown". */
export function EditAlbumDialog({ album, onClose }: { album: Album; onClose: () => void }) {
  const [name, setName] = useState(album.name);
  const [year, setYear] = useState(album.year === null ? '' : String(album.year));
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const update = useUpdateAlbum(album.id);
  const alerts = useAlerts();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const parsed = AlbumEditFields.safeParse({ name, year: year.trim() === '' ? null : Number(year) });
    setErrors(fieldErrorsOf<Field>(parsed));
    if (!parsed.success) return;
    update.mutate(parsed.data, {
      onSuccess: () => {
        alerts.success(UiMessages.albumUpdated);
        onClose();
      },
      onError: (error) => {
        if (isApiError(error) && FIELDS.includes(error.field ?? '')) {
          setErrors({ [error.field as Field]: error.message });
        } else {
          alerts.error(UiMessages.failedToUpdateAlbum, describeError(error));
        }
      },
    });
  };

  return (
    <Dialog title="Edit album" onClose={onClose} size="sm">
      <form className="form" aria-label="Edit album" noValidate onSubmit={onSubmit}>
        <FormField
          label="Name"
          error={errors.name}
          hint={album.placeholder ? 'A name makes these songs an album of their own' : undefined}
        >
          {(control) => (
            <input
              {...control}
              className="input"
              name="name"
              value={name}
              data-autofocus
              onChange={(event) => {
                setName(event.target.value);
              }}
            />
          )}
        </FormField>
        <FormField label="Year" error={errors.year} optional>
          {(control) => (
            <input
              {...control}
              className="input"
              name="year"
              inputMode="numeric"
              value={year}
              onChange={(event) => {
                setYear(event.target.value);
              }}
            />
          )}
        </FormField>
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
