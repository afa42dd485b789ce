import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmProvider } from './ConfirmProvider.js';
import { useConfirm } from './useConfirm.js';

function DeleteButton({ onConfirm }: { onConfirm: () => void }) {
  const confirm = useConfirm();
  return (
    <button type="button" onClick={() => confirm({ message: 'Delete “Song 1”?', onConfirm })}>
      Delete
    </button>
  );
}

function renderWithConfirm(onConfirm = vi.fn()) {
  render(
    <ConfirmProvider>
      <DeleteButton onConfirm={onConfirm} />
    </ConfirmProvider>,
  );
  const opener = screen.getByRole('button', { name: 'Delete' });
  opener.focus();
  fireEvent.click(opener);
  return onConfirm;
}

describe('confirm dialog', () => {
  it('opens with the message and the buttons Cancel and Confirm', () => {
    renderWithConfirm();
    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure?' });
    expect(dialog.textContent).toContain('Delete “Song 1”?');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeInTheDocument();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('Cancel closes it without running the action', () => {
    const onConfirm = renderWithConfirm();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('Confirm runs the action once and closes it', () => {
    const onConfirm = renderWithConfirm();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('Escape closes it like Cancel and returns focus to the opener', () => {
    const onConfirm = renderWithConfirm();
    fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onConfirm).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete' }));
  });

  it('keeps Tab focus inside the dialog', () => {
    renderWithConfirm();
    const dialog = screen.getByRole('alertdialog');
    const confirmButton = screen.getByRole('button', { name: 'Confirm' });
    confirmButton.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close dialog' }));
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(confirmButton);
  });
});
