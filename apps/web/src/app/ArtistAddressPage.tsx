import { useQuery } from '@tanstack/react-query';
import { useLocation, useParams } from 'react-router';
import { ArtistAlbums } from '../features/albums/ArtistAlbums.js';
import { artistQueries } from '../features/artists/queries.js';
import { ArtistCredits } from '../features/songs/ArtistCredits.js';
import { ArtistSongsPage } from '../features/songs/ArtistSongsPage.js';
import { artistFromState } from '../features/songs/song-filter.js';
import { isApiError } from '../lib/api-client.js';
import { Paths } from '../lib/paths.js';
import { UiMessages } from '../lib/ui-messages.js';
import { useDocumentTitle } from '../lib/useDocumentTitle.js';
import { NotFoundState } from '../ui/NotFoundState.js';
import { RouteLoader } from '../ui/RouteLoader.js';
import '../ui/buttons.css';
import '../ui/empty-state.css';
import '../ui/page.css';

/** The artist id of an address: a positive whole number written plainly ("7", not "07", "7.0" or "1e3"), else null. */
export function artistIdOf(segment: string | undefined): number | null {
  if (segment === undefined || !/^[1-9]\d{0,15}$/.test(segment)) return null;
  const id = Number(segment);
  return Number.isSafeInteger(id) ? id : null;
}

function ArtistNotFound() {
  return (
    <div className="page">
      <NotFoundState
        title="Artist not found"
        text={`${UiMessages.artistNotFound} They may have been removed, or merged into another by a scan.`}
        back={{ to: Paths.artist, label: 'Browse artists' }}
      />
    </div>
  );
}

/**
 * `/dashboard/artist/:id` (issue 26): an artist's own address, so their page can be shared, bookmarked and reloaded.
 * The same page as SPEC's /dashboard/songs with artist details (header, albums, songs, other credits), the artist
 * fetched by id. A link that passes the artist along shows their name at once; an id nobody has is not found.
 */
export function ArtistAddressPage() {
  const id = artistIdOf(useParams().id);
  const location = useLocation();
  const passed = artistFromState(location.state);
  const details = useQuery({ ...artistQueries.detail(id ?? 0), enabled: id !== null });
  const artist = details.data?.id === id ? details.data : passed?.id === id ? passed : null;
  const missing = id === null || isApiError(details.error, 404, 400);
  useDocumentTitle(missing ? 'Artist not found' : (artist?.name ?? null));
  if (missing) return <ArtistNotFound />;
  if (artist !== null) {
    return (
      <ArtistSongsPage
        key={artist.id}
        artist={artist}
        before={<ArtistAlbums artist={artist} />}
        after={<ArtistCredits artist={artist} />}
      />
    );
  }
  if (details.isError) {
    return (
      <div className="page">
        <div className="empty-state">
          <p>{UiMessages.artistUnavailable}</p>
          <button type="button" className="button button--ghost" onClick={() => void details.refetch()}>
            Try again
          </button>
        </div>
      </div>
    );
  }
  return <RouteLoader label="Loading artist" />;
}
