import { useId } from 'react';
import { Dialog } from '../../ui/Dialog.js';
import '../../ui/Dialog.css';
import '../../ui/buttons.css';

export const CONFIRM_DEFAULT_TITLE = 'Are you sure?';

export interface ConfirmDialogProps {
  title?: string;
  message: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** SPEC §2 confirm dialog: a message and the buttons Cancel and Confirm. */
export function ConfirmDialog({ title = CONFIRM_DEFAULT_TITLE, message, onCancel, onConfirm }: ConfirmDialogProps) {
  const messageId = useId();
  return (
    <Dialog title={title} onClose={onCancel} describedBy={messageId} size="sm" role="alertdialog">
      <p id={messageId} className="dialog__message">
        {message}
      </p>
      <div className="dialog__actions">
        <button type="button" className="button button--ghost" onClick={onCancel} data-autofocus>
          Cancel
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm}>
          Confirm
        </button>
      </div>
    </Dialog>
  );
}
