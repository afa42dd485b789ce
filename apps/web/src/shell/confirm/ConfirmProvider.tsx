import { useCallback, useState, type ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog.js';
import { ConfirmContext, type ConfirmRequest } from './useConfirm.js';

/** SPEC §4: Cancel closes the dialog; Confirm runs the action and closes it. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const confirm = useCallback((next: ConfirmRequest) => {
    setRequest(next);
  }, []);

  return (
    <ConfirmContext value={confirm}>
      {children}
      {request && (
        <ConfirmDialog
          title={request.title}
          message={request.message}
          onCancel={() => {
            setRequest(null);
          }}
          onConfirm={() => {
            setRequest(null);
            request.onConfirm();
          }}
        />
      )}
    </ConfirmContext>
  );
}
