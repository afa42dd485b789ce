import { CROSSFADE_MAX_SECONDS, useCrossfade, useGapless, writeCrossfade, writeGapless } from '../../lib/crossfade.js';

export const CrossfadeTexts = {
  label: 'Crossfade',
  hint: 'Fades one song into the next over this many seconds. Tracks of one album played in order stay gapless. On this device only.',
  off: 'Off',
  gapless: 'Gapless playback',
  gaplessHint: 'Plays songs back to back with no gap, converted losslessly by the server. On this device only.',
} as const;

/** The player's crossfade, 0 (off) to CROSSFADE_MAX_SECONDS: a setting of this browser, like the data saver. */
export function CrossfadeSetting() {
  const seconds = useCrossfade();
  const gapless = useGapless();
  return (
    <>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={gapless}
          onChange={(event) => {
            writeGapless(event.target.checked);
          }}
        />
        <span>{CrossfadeTexts.gapless}</span>
      </label>
      <p className="muted">{CrossfadeTexts.gaplessHint}</p>
      <div className="field">
        <label htmlFor="crossfade-seconds">{CrossfadeTexts.label}</label>
        <input
          id="crossfade-seconds"
          type="range"
          min={0}
          max={CROSSFADE_MAX_SECONDS}
          step={1}
          value={seconds}
          aria-valuetext={seconds === 0 ? CrossfadeTexts.off : `${String(seconds)} s`}
          onChange={(event) => {
            writeCrossfade(Number(event.target.value));
          }}
        />
        <output htmlFor="crossfade-seconds">{seconds === 0 ? CrossfadeTexts.off : `${String(seconds)} s`}</output>
        <p className="muted">{CrossfadeTexts.hint}</p>
      </div>
    </>
  );
}
