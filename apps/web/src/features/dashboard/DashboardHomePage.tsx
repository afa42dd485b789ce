import { useQuery } from '@tanstack/react-query';
import type { Song } from '@tonearm/contract';
import { greeting } from '../../lib/greeting.js';
import { Paths } from '../../lib/paths.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { useRecentSongs } from '../../lib/useStoredSongLists.js';
import { useCurrentUser } from '../../shell/auth/useAuth.js';
import { AlbumGrid, AlbumSkeletons } from '../albums/AlbumCard.js';
import { albumQueries } from '../albums/queries.js';
import { ArtistCard, ArtistSkeletons } from '../artists/ArtistCard.js';
import { artistQueries } from '../artists/queries.js';
import { FirstLibraryStep } from '../libraries/FirstLibraryStep.js';
import { catalogueSource } from '../songs/catalogue.js';
import type { PlayToggleProps } from '../songs/SongControls.js';
import { SongTile } from '../songs/SongTile.js';
import { usePagedSongs } from '../songs/useSongs.js';
import { Shelf } from './Shelf.js';
import '../../ui/page.css';
import '../../ui/skeleton.css';
import '../../ui/tiles.css';
import './Shelf.css';
import './DashboardHomePage.css';

const SHELF_SIZE = 12;

/** The first SHELF_SIZE songs of a list as tiles; playing one plays on through the list (and its source, if paged). */
function SongShelf({
  songs,
  source,
  nextCursor,
  label,
}: Pick<PlayToggleProps, 'source' | 'nextCursor'> & { songs: readonly Song[]; label: string }) {
  const shown = songs.slice(0, SHELF_SIZE);
  return (
    <div role="list" aria-label={label} className="tile-grid">
      {shown.map((song) => (
        <SongTile key={song.id} song={song} list={songs} source={source} nextCursor={nextCursor} />
      ))}
    </div>
  );
}

function TileSkeletons() {
  return (
    <div className="tile-grid" aria-hidden="true">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="tile tile--skeleton" data-testid="song-skeleton">
          <span className="skeleton skeleton--square" />
          <span className="skeleton skeleton--line" />
        </div>
      ))}
    </div>
  );
}

/**
 * `/dashboard`: greeting, an administrator's first step while no music folder is added, recently played, songs (the
 * catalogue's first page, as the songs page shows it), the albums added last, and artists.
 */
export function DashboardHomePage() {
  const user = useCurrentUser();
  const recent = useRecentSongs();
  const songs = usePagedSongs(catalogueSource());
  const artists = useQuery(artistQueries.first(SHELF_SIZE));
  const albums = useQuery(albumQueries.recent());

  return (
    <div className="page page--home">
      <header className="home-hero">
        <h1 className="page-title">{greeting(new Date())}</h1>
        <p className="home-hero__sub">Welcome back, {user.username}.</p>
      </header>

      {/* Issue 25: an administrator's first step while the server has no music folder (the demo songs stay below). */}
      <FirstLibraryStep />

      <Shelf title="Recently played">
        {recent.length > 0 ? (
          <SongShelf songs={recent} label="Recently played" />
        ) : (
          <p className="shelf__empty">Songs you play show up here.</p>
        )}
      </Shelf>

      <Shelf title="Songs" showAllTo={Paths.songs}>
        {songs.songs.length > 0 ? (
          <SongShelf songs={songs.songs} source={songs.source} nextCursor={songs.paging.nextCursor} label="Songs" />
        ) : songs.query.isPending ? (
          <TileSkeletons />
        ) : songs.query.isError ? (
          // Loading gave up (the red alert says so): not the same as an empty catalogue.
          <p className="shelf__empty">{UiMessages.songsUnavailable}</p>
        ) : (
          <p className="shelf__empty">No songs in the catalogue yet.</p>
        )}
      </Shelf>

      {/* Issue 12: shown once the catalogue has albums; a server without any keeps the home page as it was. */}
      {albums.isPending && (
        <Shelf title="Recently added albums">
          <AlbumSkeletons />
        </Shelf>
      )}
      {albums.data && albums.data.items.length > 0 && (
        <Shelf title="Recently added albums">
          <AlbumGrid albums={albums.data.items.slice(0, SHELF_SIZE)} label="Recently added albums" />
        </Shelf>
      )}

      <Shelf title="Artists" showAllTo={Paths.artist}>
        {artists.isPending && <ArtistSkeletons />}
        {artists.data && artists.data.length > 0 && (
          <ul className="tile-grid" aria-label="Artists">
            {artists.data.map((artist) => (
              <ArtistCard key={artist.id} artist={artist} />
            ))}
          </ul>
        )}
        {artists.data?.length === 0 && <p className="shelf__empty">No artists yet.</p>}
      </Shelf>
    </div>
  );
}
