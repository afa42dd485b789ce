import type { CSSProperties } from 'react';
import { formatTime, spokenTime } from '../lib/format-time.js';
import { Cover } from '../ui/Cover.js';
import { NextIcon, PauseIcon, PlayIcon, PreviousIcon, VolumeIcon, VolumeMutedIcon } from '../ui/icons.js';
import { usePlayerClock, usePlayerControls, usePlayerState } from './usePlayer.js';

function progressStyle(value: number, max: number): CSSProperties {
  const percent = max > 0 ? Math.min(100, (value / max) * 100) : 0;
  return { '--progress': `${percent}%` } as CSSProperties;
}

function NowPlaying() {
  const song = usePlayerState((state) => state.current);
  return (
    <div className="now-playing">
      <Cover src={song.imgLink} width={64} className="now-playing__cover" />
      <div className="now-playing__text">
        <span className="now-playing__name">{song.name}</span>
        <span className="now-playing__artist">{song.artistName}</span>
      </div>
    </div>
  );
}

function SeekBar() {
  const { position, duration } = usePlayerClock();
  const controls = usePlayerControls();
  const max = duration > 0 ? duration : 0;
  return (
    <div className="seek">
      <span className="seek__time" aria-hidden="true">
        {formatTime(position)}
      </span>
      <input
        type="range"
        className="range seek__range"
        aria-label="Seek"
        min={0}
        max={max || 1}
        step={1}
        value={Math.min(position, max || 1)}
        disabled={max === 0}
        aria-valuetext={`${spokenTime(position)} of ${spokenTime(max)}`}
        style={progressStyle(position, max)}
        onChange={(event) => {
          controls.seek(Number(event.target.value));
        }}
      />
      <span className="seek__time" aria-hidden="true">
        {formatTime(max)}
      </span>
    </div>
  );
}

function TransportControls() {
  const playing = usePlayerState((state) => state.playing);
  const controls = usePlayerControls();
  return (
    <div className="transport">
      <button type="button" className="icon-button" aria-label="Previous" onClick={controls.previous}>
        <PreviousIcon size={20} />
      </button>
      <button
        type="button"
        className="play-toggle play-toggle--main"
        aria-label={playing ? 'Pause' : 'Play'}
        onClick={controls.toggle}
      >
        {playing ? <PauseIcon size={20} /> : <PlayIcon size={20} />}
      </button>
      <button type="button" className="icon-button" aria-label="Next" onClick={controls.next}>
        <NextIcon size={20} />
      </button>
    </div>
  );
}

function VolumeControl() {
  const volume = usePlayerState((state) => state.volume);
  const muted = usePlayerState((state) => state.muted);
  const controls = usePlayerControls();
  const shown = muted ? 0 : Math.round(volume * 100);
  return (
    <div className="volume">
      <button
        type="button"
        className="icon-button"
        aria-label={muted ? 'Unmute' : 'Mute'}
        onClick={controls.toggleMute}
      >
        {muted || volume === 0 ? <VolumeMutedIcon size={20} /> : <VolumeIcon size={20} />}
      </button>
      <input
        type="range"
        className="range volume__range"
        aria-label="Volume"
        min={0}
        max={100}
        step={1}
        value={shown}
        aria-valuetext={`${shown}%`}
        style={progressStyle(shown, 100)}
        onChange={(event) => {
          controls.setVolume(Number(event.target.value) / 100);
        }}
      />
    </div>
  );
}

/** The persistent player bar at the bottom of the dashboard. */
export function PlayerBar() {
  return (
    <section className="player-bar" aria-label="Player">
      <NowPlaying />
      <div className="player-bar__center">
        <TransportControls />
        <SeekBar />
      </div>
      <VolumeControl />
    </section>
  );
}
