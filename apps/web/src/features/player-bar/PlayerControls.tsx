import type { CSSProperties } from 'react';
import { formatTime, spokenTime } from '../../lib/format-time.js';
import { usePlayerClock, usePlayerControls, usePlayerState } from '../../player/usePlayer.js';
import {
  NextIcon,
  PauseIcon,
  PlayIcon,
  PreviousIcon,
  RepeatIcon,
  RepeatOneIcon,
  ShuffleIcon,
  VolumeIcon,
  VolumeMutedIcon,
} from '../../ui/icons.js';
import '../../ui/buttons.css';
import './PlayerControls.css';

function progressStyle(value: number, max: number): CSSProperties {
  const percent = max > 0 ? Math.min(100, (value / max) * 100) : 0;
  return { '--progress': `${percent}%` } as CSSProperties;
}

export function SeekBar() {
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

/** Shuffle and repeat: shown in the bar on wide screens, in the queue and Now playing views everywhere. */
export function PlayModeButtons() {
  const shuffle = usePlayerState((state) => state.shuffle);
  const repeat = usePlayerState((state) => state.repeat);
  const controls = usePlayerControls();
  return (
    <>
      <button
        type="button"
        className="icon-button mode-button"
        aria-label="Shuffle"
        aria-pressed={shuffle}
        title="Shuffle (S)"
        onClick={controls.toggleShuffle}
      >
        <ShuffleIcon size={20} />
      </button>
      <button
        type="button"
        className="icon-button mode-button"
        aria-label={`Repeat: ${repeat}`}
        aria-pressed={repeat !== 'off'}
        data-mode={repeat}
        title="Repeat: off, all, one (R)"
        onClick={controls.cycleRepeat}
      >
        {repeat === 'one' ? <RepeatOneIcon size={20} /> : <RepeatIcon size={20} />}
      </button>
    </>
  );
}

export function TransportControls() {
  const playing = usePlayerState((state) => state.playing);
  const controls = usePlayerControls();
  return (
    <div className="transport">
      <span className="transport__modes">
        <PlayModeButtons />
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label="Previous"
        title="Previous (P)"
        onClick={controls.previous}
      >
        <PreviousIcon size={20} />
      </button>
      <button
        type="button"
        className="play-toggle play-toggle--main"
        aria-label={playing ? 'Pause' : 'Play'}
        title="Play/pause (Space)"
        onClick={controls.toggle}
      >
        {playing ? <PauseIcon size={20} /> : <PlayIcon size={20} />}
      </button>
      <button type="button" className="icon-button" aria-label="Next" title="Next (N)" onClick={controls.next}>
        <NextIcon size={20} />
      </button>
    </div>
  );
}

export function VolumeControl() {
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
        title="Mute (M)"
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
