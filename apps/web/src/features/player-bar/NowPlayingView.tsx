import { useState, type MouseEvent } from 'react';
import { usePlayerState } from '../../player/usePlayer.js';
import { isWelcomeSong } from '../../player/welcome-song.js';
import { Cover } from '../../ui/Cover.js';
import { Dialog } from '../../ui/Dialog.js';
import { SongArtists } from '../songs/SongArtists.js';
import { LikeButton } from '../songs/SongControls.js';
import { LyricsPanel } from './LyricsPanel.js';
import { SeekBar, TransportControls, VolumeControl } from './PlayerControls.js';
import { NextUp } from './QueuePanel.js';
import './NowPlayingView.css';

/** The Now playing view's name: its dialog's title, and the name of the bar's button that opens it. */
export const NOW_PLAYING_LABEL = 'Now playing';

/**
 * The full-screen view of the song playing: a large cover, its title and artists, like, the play modes, seek,
 * transport and volume, what plays next, and the song's lyrics. Every control acts on the one player.
 */
export function NowPlayingView({ onClose }: { onClose: () => void }) {
  const song = usePlayerState((state) => state.current);
  const [queueBody, setQueueBody] = useState<HTMLDivElement | null>(null);
  // Following an artist's link leaves for their page: the view closes on the way.
  const closeOnLink = (event: MouseEvent<HTMLDivElement>): void => {
    if (event.target instanceof Element && event.target.closest('a[href]')) onClose();
  };
  return (
    <Dialog title={NOW_PLAYING_LABEL} onClose={onClose} size="full">
      <div className="now-playing-view" onClick={closeOnLink}>
        <div className="now-playing-view__main">
          <Cover src={song.imgLink} width={640} className="now-playing-view__cover" />
          <div className="now-playing-view__song">
            <div className="now-playing-view__text">
              <h3 className="now-playing-view__name">{song.name}</h3>
              <SongArtists song={song} className="now-playing-view__artists" />
            </div>
            {!isWelcomeSong(song) && <LikeButton song={song} />}
          </div>
          <SeekBar />
          <TransportControls />
          <VolumeControl />
        </div>
        <div className="now-playing-view__side">
          <div ref={setQueueBody} className="now-playing-view__queue">
            <h3 className="now-playing-view__heading">Next up</h3>
            <NextUp scrollElement={queueBody} />
          </div>
          <section className="now-playing-view__lyrics" aria-label="Lyrics">
            <h3 className="now-playing-view__heading">Lyrics</h3>
            <LyricsPanel key={song.id} song={song} />
          </section>
        </div>
      </div>
    </Dialog>
  );
}
