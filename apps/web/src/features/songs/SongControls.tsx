import type { Song } from '@tonearm/contract';
import type { SongSource } from '../../lib/song-sources.js';
import { useIsSongPlaying, usePlayerControls, usePlayerState } from '../../player/usePlayer.js';
import { HeartFilledIcon, HeartIcon, PauseIcon, PlayIcon } from '../../ui/icons.js';
import { useLikeSong } from './mutations.js';
import '../../ui/buttons.css';
import './SongControls.css';

export interface PlayToggleProps {
  song: Song;
  /** The songs of the list the song is in (for a paged list, those loaded so far). */
  list: readonly Song[];
  /** A paged list's source: choosing the song plays on through the rest of the list (`playFrom`). */
  source?: SongSource | undefined;
  /** The cursor of the paged list's next page. */
  nextCursor?: string | null | undefined;
  className?: string;
}

/** The play/pause toggle of a song; its state follows the player. */
export function PlayToggle({ song, list, source, nextCursor = null, className }: PlayToggleProps) {
  const playing = useIsSongPlaying(song.id);
  const isCurrent = usePlayerState((state) => state.current.id === song.id);
  const controls = usePlayerControls();
  const choose = (): void => {
    const index = list.findIndex((entry) => entry.id === song.id);
    if (source && !isCurrent && index >= 0) controls.playFrom({ source, songs: list, nextCursor, index });
    else controls.toggleSong(song, list);
  };
  return (
    <button
      type="button"
      className={className ?? 'play-toggle'}
      aria-label={`${playing ? 'Pause' : 'Play'} ${song.name}`}
      data-playing={playing}
      onClick={choose}
    >
      {playing ? <PauseIcon size={18} /> : <PlayIcon size={18} />}
    </button>
  );
}

export function LikeButton({ song }: { song: Song }) {
  const like = useLikeSong();
  return (
    <button
      type="button"
      className="icon-button like-button"
      aria-label={`Like ${song.name}`}
      aria-pressed={song.likeSong}
      onClick={() => {
        like.mutate({ song, liked: !song.likeSong });
      }}
    >
      {song.likeSong ? <HeartFilledIcon size={18} /> : <HeartIcon size={18} />}
    </button>
  );
}
