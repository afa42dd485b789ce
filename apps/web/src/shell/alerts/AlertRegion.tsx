import { useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { CheckCircleIcon, CloseIcon, ErrorIcon } from '../../ui/icons.js';
import type { AlertItem, AlertStore } from './alert-store.js';
import '../../ui/buttons.css';
import './AlertRegion.css';

function AlertBanner({ alert, onClose }: { alert: AlertItem; onClose: () => void }) {
  const isError = alert.kind === 'error';
  return (
    <div className={`alert alert--${alert.kind}`} role={isError ? 'alert' : 'status'} data-alert-kind={alert.kind}>
      {isError ? <ErrorIcon className="alert__icon" /> : <CheckCircleIcon className="alert__icon" />}
      <div className="alert__text">
        <p className="alert__message">{alert.message}</p>
        {alert.detail !== undefined && <p className="alert__detail">{alert.detail}</p>}
      </div>
      <button type="button" className="icon-button alert__close" aria-label="Close alert" onClick={onClose}>
        <CloseIcon />
      </button>
    </div>
  );
}

/** Rendered outside the app root so alerts stay visible and reachable while a modal dialog is open. */
export function AlertRegion({ store }: { store: AlertStore }) {
  const alerts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return createPortal(
    <section className="alert-region" aria-label="Notifications">
      {alerts.map((alert) => (
        <AlertBanner
          key={alert.id}
          alert={alert}
          onClose={() => {
            store.dismiss(alert.id);
          }}
        />
      ))}
    </section>,
    document.body,
  );
}
