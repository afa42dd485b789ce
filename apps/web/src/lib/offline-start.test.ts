import { afterEach, describe, expect, it, vi } from 'vitest';
import { OFFLINE_SHELL_META, SERVER_REACHED_EVENT, servedOfflineShell, serverReached } from './offline-start.js';

describe('a page the service worker answered offline', () => {
  afterEach(() => {
    document.head.querySelectorAll('meta').forEach((meta) => meta.remove());
  });

  it('is known by its mark until the server is reached, which listeners are told once', () => {
    expect(servedOfflineShell()).toBe(false);
    const meta = document.createElement('meta');
    meta.name = OFFLINE_SHELL_META;
    document.head.append(meta);
    expect(servedOfflineShell()).toBe(true);

    const reached = vi.fn();
    window.addEventListener(SERVER_REACHED_EVENT, reached);
    serverReached();
    serverReached();
    window.removeEventListener(SERVER_REACHED_EVENT, reached);
    expect(servedOfflineShell()).toBe(false);
    expect(reached).toHaveBeenCalledTimes(1);
  });
});
