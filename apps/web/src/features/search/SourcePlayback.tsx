import type { ReactNode } from 'react';
import { useMemo } from 'react';
import type { SongSource } from '../../lib/song-sources.js';
import type { PlayerRuntime } from '../../player/player-runtime.js';
import { PlayerContext, usePlayerRuntime } from '../../player/usePlayer.js';

/** The runtime with `playList` and `toggleSong` choosing songs through `playFrom` on `source`. */
function playingFrom(runtime: PlayerRuntime, source: SongSource, nextCursor: string | null): PlayerRuntime {
  const { controls, store } = runtime;
  return {
    ...runtime,
    get audio() {
      return runtime.audio;
    },
    controls: {
      ...controls,
      playList: (songs, index) => {
        controls.playFrom({ source, songs, nextCursor, index });
      },
      toggleSong: (song, list) => {
        const index = list.findIndex((entry) => entry.id === song.id);
        if (store.getState().current.id === song.id || index < 0) controls.toggleSong(song, list);
        else controls.playFrom({ source, songs: list, nextCursor, index });
      },
    },
  };
}

/**
 * Songs chosen inside play from a paged `source`: a row's play toggle or a Play button starts the queue at the chosen
 * song of the list it was chosen from (the songs loaded so far, which end at `nextCursor`), and the player pages on
 * through the rest of the source.
 */
export function SourcePlayback({
  source,
  nextCursor,
  children,
}: {
  source: SongSource;
  nextCursor: string | null;
  children: ReactNode;
}) {
  const runtime = usePlayerRuntime();
  const value = useMemo(() => playingFrom(runtime, source, nextCursor), [runtime, source, nextCursor]);
  return <PlayerContext value={value}>{children}</PlayerContext>;
}
