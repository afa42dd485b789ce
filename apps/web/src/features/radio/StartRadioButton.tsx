import { RADIO_SEED_MAX, type Song } from '@tonearm/contract';
import { RadioIcon } from '../../ui/discovery-icons.js';
import { useStartRadio } from './useStartRadio.js';
import '../../ui/buttons.css';

/** Why "Start radio" is disabled: the page's songs are on their way, or it has none. */
export const RadioWaitReasons = {
  loading: 'Loading songs…',
  empty: 'No songs to start a radio from',
} as const;

/**
 * "Start radio" in a page's header (issue 28): an album's, an artist's or a playlist's radio, seeded with the songs
 * the page has loaded (the first RADIO_SEED_MAX). Disabled, saying why, until the page has a song.
 */
export function StartRadioButton({
  songs,
  label,
  loading = false,
}: {
  songs: readonly Song[];
  /** What the radio is of, for its alerts ("No radio for …"). */
  label: string;
  /** The page's songs are still loading. */
  loading?: boolean;
}) {
  const startRadio = useStartRadio();
  const waiting = songs.length > 0 ? undefined : loading ? RadioWaitReasons.loading : RadioWaitReasons.empty;
  return (
    <button
      type="button"
      className="button button--ghost"
      disabled={waiting !== undefined}
      title={waiting}
      onClick={() => {
        startRadio(
          songs.slice(0, RADIO_SEED_MAX).map((song) => song.id),
          label,
        );
      }}
    >
      <RadioIcon size={18} />
      Start radio
    </button>
  );
}
