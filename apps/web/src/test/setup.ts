import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// The suite shares 2 cores with the server project under `npm test`: a lazily loaded page can take a few seconds to
// appear there, which is load, not a fault, so queries wait up to 4 s (the default is 1 s).
configure({ asyncUtilTimeout: 4000 });

// jsdom has no media playback; the audio engine only needs these calls to succeed.
Object.defineProperties(HTMLMediaElement.prototype, {
  play: { configurable: true, value: () => Promise.resolve() },
  pause: { configurable: true, value: () => undefined },
  load: { configurable: true, value: () => undefined },
});

// jsdom lays nothing out, so it has no scrollIntoView; a form that shows its first error calls it. Recorded, so a test
// can see what was brought into view.
Object.defineProperty(Element.prototype, 'scrollIntoView', {
  configurable: true,
  value: function scrollIntoView(this: Element) {
    document.body.dataset.scrolledTo = this.className;
  },
});

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});
