import { DATA_SAVER_BITRATE } from '@tonearm/contract';
import { useQuery } from '@tanstack/react-query';
import { useDataSaver, writeDataSaver } from '../../lib/data-saver.js';
import { CrossfadeSetting } from './CrossfadeSetting.js';
import { mediaQueries } from './queries.js';

export const DataSaverTexts = {
  label: 'Data saver',
  hint: `Streams songs as Opus at ${DATA_SAVER_BITRATE} kbit/s, about a third of an MP3's size. Applies from the next song, on this device only. Downloads stay in their original quality.`,
  unavailable: 'This server cannot convert audio, so songs play in their original quality.',
} as const;

/** The player's data saver: a setting of this browser (localStorage), not of the account. */
export function DataSaverSetting() {
  const on = useDataSaver();
  const capabilities = useQuery(mediaQueries.capabilities());
  return (
    <section className="profile__sessions" aria-label={DataSaverTexts.label}>
      <h3 className="profile__heading">Playback</h3>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={on}
          onChange={(event) => {
            writeDataSaver(event.target.checked);
          }}
        />
        <span>{DataSaverTexts.label}</span>
      </label>
      <p className="muted">{DataSaverTexts.hint}</p>
      {capabilities.data?.transcoding === false && <p className="muted">{DataSaverTexts.unavailable}</p>}
      <CrossfadeSetting />
    </section>
  );
}
