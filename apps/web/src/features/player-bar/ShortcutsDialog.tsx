import { SHORTCUTS } from '../../player/keyboard-shortcuts.js';
import { Dialog } from '../../ui/Dialog.js';
import './ShortcutsDialog.css';

/** The help overlay opened with "?": every player shortcut with its keys. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} size="sm">
      <dl className="shortcuts">
        {SHORTCUTS.map((shortcut) => (
          <div key={shortcut.command} className="shortcuts__row">
            <dt className="shortcuts__keys">
              {shortcut.keys.map((key, i) => (
                <span key={key}>
                  {i > 0 && <span className="shortcuts__or"> or </span>}
                  <kbd className="kbd">{key}</kbd>
                </span>
              ))}
            </dt>
            <dd className="shortcuts__description">{shortcut.description}</dd>
          </div>
        ))}
      </dl>
      <p className="muted shortcuts__note">Shortcuts work anywhere except while you type in a field.</p>
    </Dialog>
  );
}
