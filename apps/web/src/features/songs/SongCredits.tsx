import type { Song } from '@tonearm/contract';
import { Fragment, useId } from 'react';
import { ArtistLink } from '../artists/ArtistLink.js';
import { creditLines } from './credits.js';
import './SongCredits.css';

/**
 * Issue 25: who the song's tags credit, one line per role ("Composer: X, Y", "Performer (guitar): Z"), each artist
 * linking to their page; nothing when they credit no one.
 */
export function SongCredits({ song }: { song: Song }) {
  const headingId = useId();
  const lines = creditLines((song as Partial<Song>).contributors);
  if (lines.length === 0) return null;
  return (
    <section className="song-credits" aria-labelledby={headingId}>
      <h3 id={headingId} className="song-credits__title">
        Credits
      </h3>
      <dl className="song-credits__list">
        {lines.map((line) => (
          <div key={line.label} className="song-credits__line">
            <dt>{line.label}</dt>
            <dd>
              {line.artists.map((artist, index) => (
                <Fragment key={artist.id}>
                  {index > 0 && ', '}
                  <ArtistLink artist={artist} />
                </Fragment>
              ))}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
