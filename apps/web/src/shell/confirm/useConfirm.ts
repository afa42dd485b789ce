import { createContext, useContext } from 'react';

export interface ConfirmRequest {
  message: string;
  /** Runs when the user presses Confirm; the dialog closes either way. */
  onConfirm: () => void;
  title?: string;
}

export type Confirm = (request: ConfirmRequest) => void;

export const ConfirmContext = createContext<Confirm | null>(null);

/** SPEC §4 confirm dialog: opens with a message and an action. */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm must be used inside <ConfirmProvider>');
  return confirm;
}
