import type { Song } from '@tonearm/contract';
import { UiMessages } from '../../lib/ui-messages.js';
import { useIsSongPlaying, usePlayerControls } from '../../player/usePlayer.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { HeartFilledIcon, HeartIcon, PauseIcon, PlayIcon } from '../../ui/icons.js';
import { useLikeSong } from './mutations.js';
import '../../ui/buttons.css';
import './SongControls.css';

/** The play/pause toggle of a song; its state follows the player. */
export function PlayToggle({ song, list, className }: { song: Song; list: readonly Song[]; className?: string }) {
  const playing = useIsSongPlaying(song.id);
  const controls = usePlayerControls();
  return (
    <button
      type="button"
      className={className ?? 'play-toggle'}
      aria-label={`${playing ? 'Pause' : 'Play'} ${song.name}`}
      data-playing={playing}
      onClick={() => {
        controls.toggleSong(song, list);
      }}
    >
      {playing ? <PauseIcon size={18} /> : <PlayIcon size={18} />}
    </button>
  );
}

export function LikeButton({ song }: { song: Song }) {
  const like = useLikeSong();
  const alerts = useAlerts();
  return (
    <button
      type="button"
      className="icon-button like-button"
      aria-label={`Like ${song.name}`}
      aria-pressed={song.likeSong}
      onClick={() => {
        like.mutate({ song, liked: !song.likeSong }, { onError: () => alerts.error(UiMessages.likeFailed) });
      }}
    >
      {song.likeSong ? <HeartFilledIcon size={18} /> : <HeartIcon size={18} />}
    </button>
  );
}
