import { describe, expect, it, vi } from 'vitest';
import { commandFor, listenForShortcuts, runCommand, SEEK_STEP_SECONDS, SHORTCUTS } from './keyboard-shortcuts.js';
import { createPlayerRuntime } from './player-runtime.js';
import { createAudioDeck } from './audio-deck.js';

function keydown(key: string, target: EventTarget = document.body, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  document.body.appendChild(node);
  return node;
}

function commandAt(key: string, target: Element, init: KeyboardEventInit = {}) {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  Object.defineProperty(event, 'target', { value: target });
  return commandFor(event);
}

describe('keyboard shortcuts', () => {
  it('maps space, arrows, m, n, p and ? (case-insensitive letters)', () => {
    const body = document.body;
    expect(commandAt(' ', body)).toBe('toggle');
    expect(commandAt('ArrowRight', body)).toBe('seekForward');
    expect(commandAt('ArrowLeft', body)).toBe('seekBack');
    expect(commandAt('ArrowUp', body)).toBe('volumeUp');
    expect(commandAt('ArrowDown', body)).toBe('volumeDown');
    expect(commandAt('M', body)).toBe('mute');
    expect(commandAt('n', body)).toBe('next');
    expect(commandAt('p', body)).toBe('previous');
    expect(commandAt('?', body, { shiftKey: true })).toBe('help');
    expect(commandAt('x', body)).toBeNull();
  });

  it('leaves keys to fields, buttons, sliders, menus, dialogs and modifier combinations', () => {
    expect(commandAt('n', element('input', { type: 'search' }))).toBeNull();
    expect(commandAt(' ', element('textarea'))).toBeNull();
    expect(commandAt('ArrowRight', element('input', { type: 'range' }))).toBeNull();
    expect(commandAt('m', element('input', { type: 'range' }))).toBe('mute');
    expect(commandAt(' ', element('button'))).toBeNull();
    expect(commandAt('n', element('button'))).toBe('next');
    const menu = element('div', { role: 'menu' });
    expect(commandAt('ArrowDown', menu)).toBeNull();
    const dialog = element('div', { 'aria-modal': 'true' });
    expect(commandAt('n', dialog)).toBeNull();
    expect(commandAt('n', document.body, { ctrlKey: true })).toBeNull();
    expect(commandAt('N', document.body, { shiftKey: true })).toBeNull();
  });

  it('runs each command on the player, the queue toggle and the help overlay', () => {
    const runtime = createPlayerRuntime(createAudioDeck());
    const toggleQueue = vi.fn();
    const showHelp = vi.fn();
    const target = { controls: runtime.controls, getState: runtime.store.getState, toggleQueue, showHelp };
    runtime.controls.setVolume(0.5);
    runCommand('volumeUp', target);
    expect(runtime.store.getState().volume).toBeCloseTo(0.6);
    runCommand('mute', target);
    expect(runtime.store.getState().muted).toBe(true);
    runCommand('toggle', target);
    expect(runtime.store.getState().playing).toBe(true);
    runCommand('shuffle', target);
    expect(runtime.store.getState().shuffle).toBe(true);
    runCommand('repeat', target);
    expect(runtime.store.getState().repeat).toBe('all');
    runCommand('seekForward', target);
    expect(runtime.audio.currentTime).toBe(SEEK_STEP_SECONDS);
    runCommand('queue', target);
    runCommand('help', target);
    expect(toggleQueue).toHaveBeenCalledTimes(1);
    expect(showHelp).toHaveBeenCalledTimes(1);
  });

  it('listens on the document, prevents the default (page scroll) and stops when disconnected', () => {
    const runtime = createPlayerRuntime(createAudioDeck());
    const stop = listenForShortcuts({
      controls: runtime.controls,
      getState: runtime.store.getState,
      toggleQueue: vi.fn(),
      showHelp: vi.fn(),
    });
    const event = keydown(' ');
    expect(event.defaultPrevented).toBe(true);
    expect(runtime.store.getState().playing).toBe(true);
    stop();
    keydown(' ');
    expect(runtime.store.getState().playing).toBe(true);
  });

  it('documents every command once in the help table', () => {
    const commands = SHORTCUTS.map((shortcut) => shortcut.command);
    expect(new Set(commands).size).toBe(commands.length);
    expect(commands).toContain('help');
  });
});
