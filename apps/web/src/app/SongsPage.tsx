import { useLocation } from 'react-router';
import { ArtistAlbums } from '../features/albums/ArtistAlbums.js';
import { SearchPage } from '../features/search/SearchPage.js';
import { ArtistCredits } from '../features/songs/ArtistCredits.js';
import { ArtistSongsPage } from '../features/songs/ArtistSongsPage.js';
import { LikedSongsPage } from '../features/songs/LikedSongsPage.js';
import { artistFromState } from '../features/songs/song-filter.js';
import { useSongParams } from '../features/songs/SongsToolbar.js';

/** Search and Liked share the search box's text, so switching between them keeps what was typed. */
function SongsView() {
  const params = useSongParams();
  return params.likedOnly ? <LikedSongsPage params={params} /> : <SearchPage params={params} />;
}

/**
 * `/dashboard/songs` (SPEC §2) is one route for three pages: an artist's songs (their albums first, the songs that
 * credit them in other roles last) when artist details came with the navigation; otherwise the liked songs for `?liked=1`, or all songs with search as you type (`?q=`).
 */
export function SongsPage() {
  const location = useLocation();
  const artist = artistFromState(location.state);
  return artist ? (
    <ArtistSongsPage
      key={artist.id}
      artist={artist}
      before={<ArtistAlbums artist={artist} />}
      after={<ArtistCredits artist={artist} />}
    />
  ) : (
    <SongsView />
  );
}
