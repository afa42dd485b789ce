import { ALERT_HIDE_MS } from '@tonearm/contract';

export type AlertKind = 'error' | 'success';

export interface AlertItem {
  readonly id: number;
  readonly kind: AlertKind;
  readonly message: string;
  /** Optional second line, e.g. the server's reason under "Failed to add song". */
  readonly detail?: string | undefined;
}

export interface AlertStore {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => readonly AlertItem[];
  show: (kind: AlertKind, message: string, detail?: string) => number;
  dismiss: (id: number) => void;
  dispose: () => void;
}

/**
 * SPEC §4: an alert appears, then hides after ALERT_HIDE_MS or when closed. Alerts stack; each keeps its own
 * timer. Showing an alert identical to a visible one replaces it (and restarts its timer) instead of stacking
 * copies, so a burst of the same failure reads as one message.
 */
export function createAlertStore(hideAfterMs: number = ALERT_HIDE_MS): AlertStore {
  let alerts: readonly AlertItem[] = [];
  let nextId = 1;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const listeners = new Set<() => void>();

  const emit = (): void => {
    listeners.forEach((listener) => {
      listener();
    });
  };

  const dismiss = (id: number): void => {
    const timer = timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.delete(id);
    if (!alerts.some((alert) => alert.id === id)) return;
    alerts = alerts.filter((alert) => alert.id !== id);
    emit();
  };

  const show = (kind: AlertKind, message: string, detail?: string): number => {
    const same = alerts.find((a) => a.kind === kind && a.message === message && a.detail === detail);
    if (same) dismiss(same.id);
    const id = nextId++;
    alerts = [...alerts, { id, kind, message, detail }];
    timers.set(
      id,
      setTimeout(() => {
        dismiss(id);
      }, hideAfterMs),
    );
    emit();
    return id;
  };

  return {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => alerts,
    show,
    dismiss,
    dispose: () => {
      timers.forEach((timer) => {
        clearTimeout(timer);
      });
      timers.clear();
      alerts = [];
      emit();
    },
  };
}
