import './audio-deck.css';

/** `data-testid` of the element that is playing, and of the one that preloads the next song. */
export const ACTIVE_AUDIO_TEST_ID = 'player-audio';
export const STANDBY_AUDIO_TEST_ID = 'player-audio-next';

/**
 * Two <audio> elements: the active one plays, the standby one loads the next song ahead of time. When the current song
 * ends the two swap roles, so the next song starts from buffered data instead of a fresh request.
 */
export interface AudioDeck {
  /**
   * Where the active element is in its song, and seeking there: set by the audio engine while a gapless stream (one
   * element playing several songs back to back) drives it; null for a plain element (its currentTime).
   */
  transport: { position: () => number; seek: (seconds: number) => void } | null;
  readonly active: HTMLAudioElement;
  readonly standby: HTMLAudioElement;
  readonly elements: readonly [HTMLAudioElement, HTMLAudioElement];
  swap: () => void;
}

export function createAudioDeck(
  first: HTMLAudioElement = document.createElement('audio'),
  second: HTMLAudioElement = document.createElement('audio'),
): AudioDeck {
  const elements = [first, second] as const;
  let activeIndex: 0 | 1 = 0;
  const label = (): void => {
    elements[activeIndex].setAttribute('data-testid', ACTIVE_AUDIO_TEST_ID);
    elements[activeIndex === 0 ? 1 : 0].setAttribute('data-testid', STANDBY_AUDIO_TEST_ID);
  };
  label();
  return {
    transport: null,
    get active() {
      return elements[activeIndex];
    },
    get standby() {
      return elements[activeIndex === 0 ? 1 : 0];
    },
    elements,
    swap: () => {
      activeIndex = activeIndex === 0 ? 1 : 0;
      label();
    },
  };
}
