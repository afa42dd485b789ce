import type { Song, SongArtist } from '@tonearm/contract';
import { Fragment } from 'react';
import { ArtistLink } from '../artists/ArtistLink.js';
import './SongArtists.css';

/** A piece of the artists' line: plain text, or an artist's name that links to their page. */
export interface ArtistSegment {
  text: string;
  artist?: SongArtist;
}

/** The song's artists, main first; the main artist alone for songs kept by an older web app (recent, downloads). */
function artistsOf(song: Song): readonly SongArtist[] {
  const { artists } = song as Partial<Song>;
  if (Array.isArray(artists) && artists.length > 0) return artists;
  return typeof song.artistId === 'number' ? [{ id: song.artistId, name: song.artistName }] : [];
}

/**
 * The artists' line as the file displays it ("A feat. B"), each artist's name in it linked; when the display does not
 * show every name in order (an artist renamed since), the names joined by commas. A song of no known artist ("Unknown
 * artist", the welcome song) is plain text.
 */
export function artistSegments(song: Song): ArtistSegment[] {
  const { displayArtist } = song as Partial<Song>;
  const display = typeof displayArtist === 'string' && displayArtist !== '' ? displayArtist : song.artistName;
  const artists = artistsOf(song);
  if (artists.length === 0) return [{ text: display }];
  const segments: ArtistSegment[] = [];
  let at = 0;
  for (const artist of artists) {
    const found = display.indexOf(artist.name, at);
    if (found < 0 || artist.name === '') {
      return artists.flatMap((each, index) => [
        ...(index === 0 ? [] : [{ text: ', ' }]),
        { text: each.name, artist: each },
      ]);
    }
    if (found > at) segments.push({ text: display.slice(at, found) });
    segments.push({ text: artist.name, artist });
    at = found + artist.name.length;
  }
  if (at < display.length) segments.push({ text: display.slice(at) });
  return segments;
}

/** The song's artists, each linking to their page (SPEC §2's artist page); one artist reads as before. */
export function SongArtists({ song, className }: { song: Song; className: string }) {
  return (
    <span className={`song-artists ${className}`}>
      {artistSegments(song).map((segment, index) =>
        segment.artist ? (
          <ArtistLink key={index} artist={segment.artist} />
        ) : (
          <Fragment key={index}>{segment.text}</Fragment>
        ),
      )}
    </span>
  );
}
