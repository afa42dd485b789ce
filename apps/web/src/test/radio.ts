import { screen } from '@testing-library/react';
import type { RadioRequest, RadioResponse, Song } from '@tonearm/contract';
import type { MockApi } from './mock-api.js';

/** A `radio.next` mock that answers these songs, then none (the radio has run out, so the queue stops asking). */
export function radioAnswering(songs: Song[]): () => RadioResponse {
  let answered = false;
  return () => {
    const next = answered ? [] : songs;
    answered = true;
    return { songIds: next.map((song) => song.id), songs: next };
  };
}

/** The seed ids the radio's first `radio.next` request sent (undefined when none was sent). */
export async function sentRadioSeeds(api: MockApi): Promise<number[] | undefined> {
  const first = api.requests('radio.next')[0];
  return first === undefined ? undefined : ((await first.clone().json()) as RadioRequest).seedIds;
}

/** A page header's "Start radio" button. */
export function startRadioButton(): HTMLElement {
  return screen.getByRole('button', { name: 'Start radio' });
}
