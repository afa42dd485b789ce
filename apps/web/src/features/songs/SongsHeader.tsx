import { ClientMessages, type Song } from '@tonearm/contract';
import { useState } from 'react';
import { fetchSongPage, type SongSource } from '../../lib/song-sources.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { usePlayerControls } from '../../player/usePlayer.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { PlayIcon, ShuffleIcon } from '../../ui/icons.js';
import { reshuffledCatalogue } from './catalogue.js';
import '../../ui/buttons.css';
import '../../ui/page.css';

export function countLabel(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? 'song' : 'songs'}`;
}

/** What a Play button starts: a list's loaded songs and, for a paged list, where the rest of it comes from. */
export interface PlayAllProps {
  songs: readonly Song[];
  /** A paged list's source: the queue plays on through the rest of the list (`playFrom`). */
  source?: SongSource | undefined;
  /** The cursor of the paged list's next page. */
  nextCursor?: string | null | undefined;
}

/**
 * The big round button of a song page: plays the page's list from its first song. Disabled, saying why, until the
 * list has a song (pressed before, the player would be left on its welcome song).
 */
export function PlayAllButton({ songs, source, nextCursor = null, label }: PlayAllProps & { label: string }) {
  const controls = usePlayerControls();
  return (
    <button
      type="button"
      className="play-toggle play-toggle--hero"
      aria-label={label}
      disabled={songs.length === 0}
      title={songs.length === 0 ? UiMessages.nothingToPlayYet : undefined}
      onClick={() => {
        if (source) controls.playFrom({ source, songs, nextCursor, index: 0 });
        else controls.playList(songs, 0);
      }}
    >
      <PlayIcon size={26} />
    </button>
  );
}

/**
 * "Shuffle all": the catalogue (or one artist's songs) in a new server-side order, from its first song. Only the first
 * page is fetched here; the queue fetches the rest as it plays, so it works over any size of catalogue.
 */
export function ShuffleAllButton({ artistId, label }: { artistId?: number | undefined; label: string }) {
  const controls = usePlayerControls();
  const alerts = useAlerts();
  const [starting, setStarting] = useState(false);
  const start = async (): Promise<void> => {
    const source = reshuffledCatalogue(artistId);
    setStarting(true);
    try {
      const page = await fetchSongPage(source);
      if (page.items.length > 0)
        controls.playFrom({ source, songs: page.items, nextCursor: page.nextCursor, index: 0 });
    } catch {
      alerts.error(ClientMessages.errorFetchingSongs);
    } finally {
      setStarting(false);
    }
  };
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={label}
      title="Shuffle"
      disabled={starting}
      onClick={() => void start()}
    >
      <ShuffleIcon />
    </button>
  );
}

/**
 * The header of a song list page: what the list is, how many songs, and Play; `shuffleAll` adds Shuffle for the
 * catalogue.
 */
export function SongsHeader({
  eyebrow,
  title,
  meta,
  songs,
  source,
  nextCursor,
  shuffleAll = false,
}: PlayAllProps & {
  eyebrow: string;
  title: string;
  meta?: string | undefined;
  shuffleAll?: boolean;
}) {
  return (
    <header className="page-header">
      <div className="page-header__text">
        <p className="eyebrow">{eyebrow}</p>
        <h1 className="page-title">{title}</h1>
        {meta !== undefined && <p className="page-header__meta">{meta}</p>}
      </div>
      <div className="page-header__actions">
        {shuffleAll && <ShuffleAllButton label={`Shuffle all ${title.toLowerCase()}`} />}
        <PlayAllButton songs={songs} source={source} nextCursor={nextCursor} label={`Play ${title.toLowerCase()}`} />
      </div>
    </header>
  );
}
