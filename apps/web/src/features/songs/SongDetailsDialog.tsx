import { UNKNOWN_ALBUM, type Song } from '@tonearm/contract';
import { useState, type MouseEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatTime } from '../../lib/format-time.js';
import { Paths } from '../../lib/paths.js';
import { Dialog } from '../../ui/Dialog.js';
import { StarRating } from '../../ui/StarRating.js';
import { useRateSong } from './mutations.js';
import { SongArtists } from './SongArtists.js';
import { SongCredits } from './SongCredits.js';
import './SongCredits.css';

/** The song's facts that it has, as label and value (the album and artists as links). */
function facts(song: Song): { label: string; value: ReactNode }[] {
  const { albumId, albumName, trackNumber, discNumber, year, genreTag, audioFormat, durationMs } =
    song as Partial<Song>;
  const artistCount = Array.isArray(song.artists) ? song.artists.length : 1;
  const rows: { label: string; value: ReactNode }[] = [
    {
      label: artistCount > 1 ? 'Artists' : 'Artist',
      value: <SongArtists song={song} className="song-details__artists" />,
    },
  ];
  if (typeof albumId === 'number' && typeof albumName === 'string' && albumName !== UNKNOWN_ALBUM) {
    rows.push({ label: 'Album', value: <Link to={`${Paths.album}?id=${albumId}`}>{albumName}</Link> });
  }
  if (typeof trackNumber === 'number') {
    const disc = typeof discNumber === 'number' ? `, disc ${discNumber}` : '';
    rows.push({ label: 'Track', value: `${trackNumber}${disc}` });
  }
  if (typeof year === 'number') rows.push({ label: 'Year', value: String(year) });
  const tag = typeof genreTag === 'string' && genreTag !== '' ? ` (${genreTag})` : '';
  rows.push({ label: 'Genre', value: `${song.genre}${tag}` });
  if (typeof durationMs === 'number') rows.push({ label: 'Length', value: formatTime(durationMs / 1000) });
  if (typeof audioFormat === 'string' && audioFormat !== '')
    rows.push({ label: 'Format', value: audioFormat.toUpperCase() });
  return rows;
}

/**
 * Issue 28: the caller's stars on the song. The dialog holds the song as it was opened, so the stars keep their own
 * state (the lists and the queue follow through the mutation), put back when the server refuses.
 */
function SongRating({ song }: { song: Song }) {
  const rate = useRateSong();
  const [rating, setRating] = useState<number | null>((song as Partial<Song>).rating ?? null);
  return (
    <div className="song-details__line">
      <dt>Rating</dt>
      <dd>
        <StarRating
          rating={rating}
          itemName={song.name}
          onRate={(next) => {
            const before = rating;
            setRating(next === 0 ? null : next);
            rate.mutate(
              { song: { ...song, rating: before }, rating: next },
              {
                onError: () => {
                  setRating(before);
                },
              },
            );
          }}
        />
      </dd>
    </div>
  );
}

/**
 * Issue 25: a song's details from its menu: its artists and album (links), track, year, genre, length and format,
 * then its credits by role. Following a link closes the dialog. Issue 28: the caller's stars, which they may change.
 */
export function SongDetailsDialog({ song, onClose }: { song: Song; onClose: () => void }) {
  const closeOnLink = (event: MouseEvent<HTMLDivElement>): void => {
    if (event.target instanceof Element && event.target.closest('a[href]')) onClose();
  };
  return (
    <Dialog title={song.name} onClose={onClose}>
      {/* Catches a click that follows a link inside (Enter on a focused link clicks it too). */}
      <div className="song-details" onClick={closeOnLink}>
        <dl className="song-details__list">
          {facts(song).map(({ label, value }) => (
            <div key={label} className="song-details__line">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
          <SongRating song={song} />
        </dl>
        <SongCredits song={song} />
      </div>
    </Dialog>
  );
}
