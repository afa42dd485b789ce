import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAlertStore } from './alert-store.js';
import { AlertProvider } from './AlertProvider.js';
import { useAlerts } from './useAlerts.js';

function Trigger() {
  const alerts = useAlerts();
  return (
    <>
      <button type="button" onClick={() => alerts.error('Song not deleted')}>
        fail
      </button>
      <button type="button" onClick={() => alerts.success('Song deleted successfully')}>
        succeed
      </button>
    </>
  );
}

describe('<AlertRegion>', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows errors as red alerts and successes as status, hides them after 3 s', () => {
    render(
      <AlertProvider store={createAlertStore()}>
        <Trigger />
      </AlertProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'fail' }));
    fireEvent.click(screen.getByRole('button', { name: 'succeed' }));

    const error = screen.getByRole('alert');
    expect(error.textContent).toContain('Song not deleted');
    expect(error.className).toContain('alert--error');
    expect(screen.getByRole('status').textContent).toContain('Song deleted successfully');

    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('closes an alert with its close button', () => {
    render(
      <AlertProvider store={createAlertStore()}>
        <Trigger />
      </AlertProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'fail' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close alert' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
