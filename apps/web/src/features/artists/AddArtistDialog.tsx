import { ArtistFormFields } from '@tonearm/contract';
import { useState, type SubmitEvent } from 'react';
import { describeError } from '../../lib/api-client.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { imageProblem } from '../../lib/upload-files.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { Dialog } from '../../ui/Dialog.js';
import { FileInput } from '../../ui/FileInput.js';
import { FormField } from '../../ui/FormField.js';
import { useCreateArtist } from './mutations.js';
import '../../ui/Dialog.css';
import '../../ui/buttons.css';
import '../../ui/forms.css';

/** Admins add artists here so that new songs have someone to belong to. */
export function AddArtistDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ name?: string | undefined; image?: string | undefined }>({});
  const alerts = useAlerts();
  const create = useCreateArtist();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const parsed = ArtistFormFields.safeParse({ name });
    const next = { name: parsed.error?.issues[0]?.message, image: image ? imageProblem(image) : undefined };
    setErrors(next);
    if (!parsed.success || next.image) return;
    create.mutate(
      { name: parsed.data.name, image: image ?? undefined },
      {
        onSuccess: (artist) => {
          alerts.success(UiMessages.artistCreated(artist.name));
          onClose();
        },
        onError: (error) => {
          alerts.error(UiMessages.failedToCreateArtist, describeError(error));
        },
      },
    );
  };

  return (
    <Dialog title="Add artist" onClose={onClose} size="sm">
      <form className="form" noValidate onSubmit={onSubmit}>
        <FormField label="Name" error={errors.name}>
          {(control) => (
            <input
              {...control}
              className="input"
              name="name"
              required
              autoComplete="off"
              value={name}
              onChange={(event) => {
                setName(event.target.value);
              }}
            />
          )}
        </FormField>
        <FormField label="Image" error={errors.image} optional hint="JPEG, PNG or WebP">
          {(control) => <FileInput {...control} name="image" accept="image/*" onFile={setImage} />}
        </FormField>
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={create.isPending}>
            {create.isPending ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
