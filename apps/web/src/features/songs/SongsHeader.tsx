import type { Song } from '@tonearm/contract';
import { usePlayerControls } from '../../player/usePlayer.js';
import { PlayIcon } from '../../ui/icons.js';
import '../../ui/buttons.css';
import '../../ui/page.css';

export function countLabel(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? 'song' : 'songs'}`;
}

/** The big round button of a song page: plays the page's list from its first song. */
export function PlayAllButton({ songs, label }: { songs: readonly Song[]; label: string }) {
  const controls = usePlayerControls();
  return (
    <button
      type="button"
      className="play-toggle play-toggle--hero"
      aria-label={label}
      disabled={songs.length === 0}
      onClick={() => {
        controls.playList(songs, 0);
      }}
    >
      <PlayIcon size={26} />
    </button>
  );
}

/** The header of a song list page: what the list is, how many songs, and Play. */
export function SongsHeader({
  eyebrow,
  title,
  meta,
  songs,
}: {
  eyebrow: string;
  title: string;
  meta?: string | undefined;
  songs: readonly Song[];
}) {
  return (
    <header className="page-header">
      <div className="page-header__text">
        <p className="eyebrow">{eyebrow}</p>
        <h1 className="page-title">{title}</h1>
        {meta !== undefined && <p className="page-header__meta">{meta}</p>}
      </div>
      <PlayAllButton songs={songs} label={`Play ${title.toLowerCase()}`} />
    </header>
  );
}
