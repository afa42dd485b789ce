import type { PlayerControls } from './player-runtime.js';
import type { PlayerState } from './player-store.js';

/** Arrow left/right seek this far; arrow up/down change the volume by VOLUME_STEP. */
export const SEEK_STEP_SECONDS = 5;
export const VOLUME_STEP = 0.1;

export type ShortcutCommand =
  | 'toggle'
  | 'seekBack'
  | 'seekForward'
  | 'volumeUp'
  | 'volumeDown'
  | 'mute'
  | 'next'
  | 'previous'
  | 'shuffle'
  | 'repeat'
  | 'queue'
  | 'help';

export interface Shortcut {
  keys: string[];
  command: ShortcutCommand;
  description: string;
}

/** The shortcut table: the help overlay lists exactly these. */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['Space', 'K'], command: 'toggle', description: 'Play or pause' },
  { keys: ['←'], command: 'seekBack', description: `Back ${SEEK_STEP_SECONDS} seconds` },
  { keys: ['→'], command: 'seekForward', description: `Forward ${SEEK_STEP_SECONDS} seconds` },
  { keys: ['↑'], command: 'volumeUp', description: 'Volume up' },
  { keys: ['↓'], command: 'volumeDown', description: 'Volume down' },
  { keys: ['M'], command: 'mute', description: 'Mute or unmute' },
  { keys: ['N'], command: 'next', description: 'Next song' },
  { keys: ['P'], command: 'previous', description: 'Previous song (or back to its start)' },
  { keys: ['S'], command: 'shuffle', description: 'Shuffle on or off' },
  { keys: ['R'], command: 'repeat', description: 'Repeat: off, all, one' },
  { keys: ['Q'], command: 'queue', description: 'Show or hide the queue' },
  { keys: ['?'], command: 'help', description: 'Show these shortcuts' },
];

const KEY_COMMANDS: Record<string, ShortcutCommand> = {
  ' ': 'toggle',
  k: 'toggle',
  ArrowLeft: 'seekBack',
  ArrowRight: 'seekForward',
  ArrowUp: 'volumeUp',
  ArrowDown: 'volumeDown',
  m: 'mute',
  n: 'next',
  p: 'previous',
  s: 'shuffle',
  r: 'repeat',
  q: 'queue',
  '?': 'help',
};

const TEXT_INPUT_TYPES = new Set([
  'text',
  'search',
  'email',
  'password',
  'number',
  'tel',
  'url',
  'date',
  'month',
  'time',
  'week',
  'datetime-local',
]);

/** Typing in a field, or a control that owns these keys (sliders, radios, selects), keeps them. */
function ownsKey(target: Element, key: string): boolean {
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) {
    if (TEXT_INPUT_TYPES.has(target.type)) return true;
    if (target.type === 'range' || target.type === 'radio') return key.startsWith('Arrow') || key === ' ';
    return key === ' ';
  }
  // Space and Enter activate a focused button or link; arrows move inside menus and lists of options.
  if (key === ' ' && target.closest('button, a[href], [role="button"], [role="menuitem"], summary')) return true;
  if (key.startsWith('Arrow') && target.closest('[role="menu"], [role="listbox"], [role="tablist"]')) return true;
  return false;
}

/** The command a keydown asks for, or null when the key belongs to someone else. */
export function commandFor(event: KeyboardEvent): ShortcutCommand | null {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return null;
  const key = event.key.length === 1 && event.key !== ' ' ? event.key.toLowerCase() : event.key;
  const command = KEY_COMMANDS[key];
  if (command === undefined) return null;
  // Shift is only part of "?"; Shift+N and friends are left to the browser and assistive technology.
  if (event.shiftKey && key !== '?') return null;
  const target = event.target;
  if (target instanceof Element) {
    if (ownsKey(target, event.key)) return null;
    // A modal dialog (other than the shortcut help) has the keyboard to itself.
    if (target.closest('[aria-modal="true"]')) return null;
  }
  return command;
}

export interface ShortcutTarget {
  controls: PlayerControls;
  getState: () => PlayerState;
  toggleQueue: () => void;
  showHelp: () => void;
}

export function runCommand(command: ShortcutCommand, { controls, getState, toggleQueue, showHelp }: ShortcutTarget) {
  switch (command) {
    case 'toggle':
      controls.toggle();
      break;
    case 'seekBack':
      controls.seekBy(-SEEK_STEP_SECONDS);
      break;
    case 'seekForward':
      controls.seekBy(SEEK_STEP_SECONDS);
      break;
    case 'volumeUp':
      controls.setVolume(getState().volume + VOLUME_STEP);
      break;
    case 'volumeDown':
      controls.setVolume(getState().volume - VOLUME_STEP);
      break;
    case 'mute':
      controls.toggleMute();
      break;
    case 'next':
      controls.next();
      break;
    case 'previous':
      controls.previous();
      break;
    case 'shuffle':
      controls.toggleShuffle();
      break;
    case 'repeat':
      controls.cycleRepeat();
      break;
    case 'queue':
      toggleQueue();
      break;
    case 'help':
      showHelp();
      break;
  }
}

/** Listens on the document; returns a disconnect function. */
export function listenForShortcuts(target: ShortcutTarget): () => void {
  const onKeyDown = (event: KeyboardEvent): void => {
    const command = commandFor(event);
    if (command === null) return;
    event.preventDefault();
    runCommand(command, target);
  };
  document.addEventListener('keydown', onKeyDown);
  return () => {
    document.removeEventListener('keydown', onKeyDown);
  };
}
