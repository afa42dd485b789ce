import { describe, expect, it } from 'vitest';
import {
  MAX_ARTIST_RUN,
  nextSongs,
  NO_REPEAT_WINDOW,
  rankArtists,
  scoreCandidate,
  seedProfile,
  type Candidate,
  type RadioSong,
} from './radio-rules.js';

function song(songId: number, artistId: number | null = songId, extra: Partial<RadioSong> = {}): RadioSong {
  return { songId, artistId, albumId: null, genre: null, year: null, ...extra };
}

function candidate(songId: number, audio: number | null, extra: Partial<Candidate> = {}): Candidate {
  return { ...song(songId), audio, coListens: 0, skips: 0, listens: 0, ...extra };
}

const ids = (songs: RadioSong[]) => songs.map((s) => s.songId);
const seedSong = song(1, 1000, { genre: 'Jazz', year: 1960, albumId: 7 });
const seed = seedProfile([seedSong]);

describe('the radio’s score', () => {
  it('puts the closest audio first when tags and listeners say nothing', () => {
    const near = scoreCandidate(seed, candidate(2, 0.9));
    const far = scoreCandidate(seed, candidate(3, 0.1));
    expect(near).toBeGreaterThan(far);
  });

  it('raises a shared genre, a near year, the seed’s artist and album, and songs played together', () => {
    const plain = scoreCandidate(seed, candidate(2, 0.5));
    expect(scoreCandidate(seed, candidate(2, 0.5, { genre: 'jazz' }))).toBeGreaterThan(plain);
    expect(scoreCandidate(seed, candidate(2, 0.5, { year: 1962 }))).toBeGreaterThan(
      scoreCandidate(seed, candidate(2, 0.5, { year: 2010 })),
    );
    expect(scoreCandidate(seed, candidate(2, 0.5, { artistId: 1000 }))).toBeGreaterThan(plain);
    expect(scoreCandidate(seed, candidate(2, 0.5, { albumId: 7 }))).toBeGreaterThan(plain);
    expect(scoreCandidate(seed, candidate(2, 0.5, { coListens: 3 }))).toBeGreaterThan(plain);
  });

  it('lowers a song that listeners skip', () => {
    const kept = scoreCandidate(seed, candidate(2, 0.5, { listens: 10 }));
    const skipped = scoreCandidate(seed, candidate(2, 0.5, { skips: 8, listens: 2 }));
    expect(skipped).toBeLessThan(kept);
  });

  it('ranks songs without a vector by tags and co-listens alone', () => {
    const tagged = scoreCandidate(seed, candidate(2, null, { genre: 'Jazz', coListens: 2 }));
    const bare = scoreCandidate(seed, candidate(3, null));
    expect(tagged).toBeGreaterThan(bare);
    expect(bare).toBe(0);
  });
});

describe('the radio’s next songs', () => {
  const many = Array.from({ length: 200 }, (_, i) => candidate(i + 2, 1 - i / 1000));

  it('starts with the seed song, then the best scored', () => {
    const next = nextSongs({ candidates: many, seed, seedSongs: [seedSong], history: [], count: 4 });
    expect(ids(next)).toEqual([1, 2, 3, 4]);
  });

  it('never plays a seed song again after the first, and a continuation does not start with it', () => {
    const withSeed = [candidate(1, 1), ...many];
    const next = nextSongs({
      candidates: withSeed,
      seed,
      seedSongs: [seedSong, song(5)],
      history: [seedSong],
      count: 20,
    });
    expect(ids(next)).not.toContain(1);
    expect(ids(next)).not.toContain(5);
  });

  it('repeats no song of the last 50 played or queued, nor within the batch', () => {
    const history = Array.from({ length: 60 }, (_, i) => song(i + 2));
    const next = nextSongs({ candidates: many, seed, seedSongs: [seedSong], history, count: 30 });
    const recent = new Set(ids(history.slice(-(NO_REPEAT_WINDOW - 1))));
    expect(ids(next).some((id) => recent.has(id))).toBe(false);
    expect(new Set(ids(next)).size).toBe(next.length);
    // Songs 2..12 are more than 49 back: they may come again, and being the best they do.
    expect(ids(next)[0]).toBe(2);
  });

  it('puts no more than 3 songs of one artist in a row, counting what was already queued', () => {
    const oneArtist = Array.from({ length: 10 }, (_, i) => candidate(i + 2, 0.99 - i / 100, { artistId: 9 }));
    const others = Array.from({ length: 10 }, (_, i) => candidate(i + 20, 0.5 - i / 100));
    const history = [song(50, 9), song(51, 9)];
    const next = nextSongs({ candidates: [...oneArtist, ...others], seed, seedSongs: [seedSong], history, count: 12 });
    const queue = [...history, ...next].map((s) => s.artistId);
    for (let at = 0; at + MAX_ARTIST_RUN < queue.length; at++) {
      expect(new Set(queue.slice(at, at + MAX_ARTIST_RUN + 1)).size).toBeGreaterThan(1);
    }
    expect(ids(next).slice(0, 2)).toEqual([2, 20]);
  });

  it('ends the batch short rather than break a rule', () => {
    const oneArtist = Array.from({ length: 10 }, (_, i) => candidate(i + 2, 0.9, { artistId: 9 }));
    const next = nextSongs({ candidates: oneArtist, seed, seedSongs: [seedSong], history: [seedSong], count: 10 });
    expect(next).toHaveLength(MAX_ARTIST_RUN);
  });
});

describe('the artists like one, by its radio', () => {
  it('ranks the artists of the chosen songs by how often they were chosen, then by who came first', () => {
    const chosen = [song(1, 7), song(2, 8), song(3, 9), song(4, 9), song(5, 7), song(6, null), song(7, 8), song(8, 6)];
    expect(rankArtists(chosen, 7, 10)).toEqual([8, 9, 6]);
    expect(rankArtists(chosen, 9, 2)).toEqual([7, 8]);
    expect(rankArtists(chosen, 7, 0)).toEqual([]);
    expect(rankArtists([], 7, 5)).toEqual([]);
  });
});
