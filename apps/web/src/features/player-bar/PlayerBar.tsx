import { useState } from 'react';
import { usePlayerState } from '../../player/usePlayer.js';
import { isWelcomeSong } from '../../player/welcome-song.js';
import { Cover } from '../../ui/Cover.js';
import { QueueIcon } from '../../ui/icons.js';
import { SongArtists } from '../songs/SongArtists.js';
import { LikeButton } from '../songs/SongControls.js';
import { ContinueOffer, DevicesMenu } from './DevicesMenu.js';
import { NOW_PLAYING_LABEL, NowPlayingView } from './NowPlayingView.js';
import { SeekBar, TransportControls, VolumeControl } from './PlayerControls.js';
import '../../ui/buttons.css';
import './PlayerBar.css';

/**
 * The song playing, in the bar: its cover opens the Now playing view; on a phone the whole mini-player does (the
 * button's tap area is stretched over it).
 */
function NowPlaying({ onOpen }: { onOpen: () => void }) {
  const song = usePlayerState((state) => state.current);
  return (
    <div className="now-playing">
      <button
        type="button"
        className="now-playing__open"
        aria-label={NOW_PLAYING_LABEL}
        aria-haspopup="dialog"
        title={NOW_PLAYING_LABEL}
        onClick={onOpen}
      >
        <Cover src={song.imgLink} width={64} className="now-playing__cover" />
      </button>
      <div className="now-playing__text">
        <span className="now-playing__name">{song.name}</span>
        <SongArtists song={song} className="now-playing__artist" />
      </div>
      {!isWelcomeSong(song) && <LikeButton song={song} />}
    </div>
  );
}

export interface PlayerBarProps {
  queueOpen: boolean;
  onToggleQueue: () => void;
  queueId: string;
}

/** The persistent player bar at the bottom of the dashboard, and the Now playing view it opens. */
export function PlayerBar({ queueOpen, onToggleQueue, queueId }: PlayerBarProps) {
  const [viewOpen, setViewOpen] = useState(false);
  return (
    <section className="player-bar" aria-label="Player">
      <NowPlaying
        onOpen={() => {
          setViewOpen(true);
        }}
      />
      <div className="player-bar__center">
        <TransportControls />
        <SeekBar />
      </div>
      <div className="player-bar__side">
        <button
          type="button"
          className="icon-button queue-toggle"
          aria-label="Queue"
          aria-expanded={queueOpen}
          aria-controls={queueOpen ? queueId : undefined}
          title="Queue (Q)"
          onClick={onToggleQueue}
        >
          <QueueIcon size={20} />
        </button>
        <DevicesMenu />
        <VolumeControl />
      </div>
      <ContinueOffer />
      {viewOpen && (
        <NowPlayingView
          onClose={() => {
            setViewOpen(false);
          }}
        />
      )}
    </section>
  );
}
