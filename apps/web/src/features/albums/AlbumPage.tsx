import { useQuery } from '@tanstack/react-query';
import type { Album, Song } from '@tonearm/contract';
import { useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { describeError, isApiError } from '../../lib/api-client.js';
import { artistHref, Paths } from '../../lib/paths.js';
import { UiMessages } from '../../lib/ui-messages.js';
import { usePlayerControls } from '../../player/usePlayer.js';
import { useAlerts } from '../../shell/alerts/useAlerts.js';
import { isAdmin, useCurrentUser } from '../../shell/auth/useAuth.js';
import { Cover } from '../../ui/Cover.js';
import { ArrowLeftIcon, CameraIcon, PlayIcon, PlaylistAddIcon } from '../../ui/icons.js';
import { NotFoundState } from '../../ui/NotFoundState.js';
import { StarRating } from '../../ui/StarRating.js';
import { artistQueries } from '../artists/queries.js';
import { SelectPlaylistDialog } from '../playlists/SelectPlaylistDialog.js';
import { StartRadioButton } from '../radio/StartRadioButton.js';
import { countLabel } from '../songs/SongsHeader.js';
import { filledColumns, sortSongs, useSongOrder } from '../songs/song-order.js';
import { SongRow } from '../songs/SongRow.js';
import { SongSortHeader } from '../songs/SongSortHeader.js';
import { PLACEHOLDER_META } from './AlbumCard.js';
import { EditAlbumDialog } from './EditAlbumDialog.js';
import { useRateAlbum, useSetAlbumCover } from './mutations.js';
import { albumQueries } from './queries.js';
import '../../ui/buttons.css';
import '../../ui/empty-state.css';
import '../../ui/page.css';
import '../../ui/skeleton.css';
import './AlbumPage.css';

/** A disc's songs, and where the first of them is in the whole album (0-based). */
export interface Disc {
  disc: number | null;
  songs: Song[];
  start: number;
}

/** The album's songs by disc, in the order the server answers (disc, then track); unknown discs form one group. */
export function discsOf(songs: readonly Song[]): Disc[] {
  const discs: Disc[] = [];
  songs.forEach((song, index) => {
    const last = discs.at(-1);
    if (last?.disc === song.discNumber) last.songs.push(song);
    else discs.push({ disc: song.discNumber, songs: [song], start: index });
  });
  return discs;
}

/** Whole minutes (and hours) of an album's length: "42 min", "1 hr 12 min". */
export function albumLength(durationMs: number): string {
  const minutes = Math.round(durationMs / 60_000);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} hr ${minutes % 60} min`;
}

/** The artist's name, linking to their page at its own address (the artist passed along to show at once). */
/** Issue 28: the caller's stars on the album, from its page's answer (updated at once, put back when refused). */
function AlbumRating({ album }: { album: Album }) {
  const rate = useRateAlbum(album.id);
  return (
    <StarRating
      rating={(album as Partial<Album>).rating ?? null}
      itemName={album.name}
      size="large"
      onRate={(rating) => {
        rate.mutate(rating);
      }}
    />
  );
}

function ArtistLink({ album }: { album: Album }) {
  const artist = useQuery({ ...artistQueries.detail(album.artistId ?? 0), enabled: album.artistId !== null });
  if (album.artistId === null) return <span>{album.artistName}</span>;
  const state = {
    artist: artist.data ?? { id: album.artistId, name: album.artistName, image: null, songs: [] },
  };
  return (
    <Link to={artistHref(album.artistId)} state={state} className="album-header__artist">
      {album.artistName}
    </Link>
  );
}

/** One disc's tracks: the rows play the whole album from the one chosen. */
function TrackList({
  album,
  songs,
  label,
  startsAt,
  queue = album.songs,
}: {
  album: Album;
  songs: readonly Song[];
  label: string;
  startsAt: number;
  /** What the rows play through (default: the album in its order). */
  queue?: readonly Song[];
}) {
  return (
    <div role="list" aria-label={label} className="album-tracks">
      {songs.map((song, index) => (
        <SongRow
          key={song.id}
          song={song}
          list={queue}
          position={startsAt + index + 1}
          setSize={album.songs.length}
          number={song.trackNumber ?? index + 1}
          hideAlbum
        />
      ))}
    </div>
  );
}

function Tracks({ album }: { album: Album }) {
  const headingId = useId();
  // Issue 26: album order (by disc) unless a column is chosen; then one list, sorted here, played as shown.
  const [order, setOrder] = useSongOrder('album');
  const sorted = useMemo(() => sortSongs(album.songs, order), [album.songs, order]);
  const discs = discsOf(album.songs);
  if (album.songs.length === 0) {
    return (
      <div className="empty-state">
        <p>No songs on this album yet.</p>
      </div>
    );
  }
  const columns = { album: false, duration: filledColumns(album.songs).duration };
  const headers = (
    <div className="song-list--no-album">
      <SongSortHeader ordering={{ kind: 'album', order, onChange: setOrder }} label="Tracks" columns={columns} />
    </div>
  );
  if (order.by !== 'list') {
    return (
      <>
        {headers}
        <TrackList album={album} songs={sorted} label="Tracks" startsAt={0} queue={sorted} />
      </>
    );
  }
  if (discs.length === 1) {
    return (
      <>
        {headers}
        <TrackList album={album} songs={album.songs} label="Tracks" startsAt={0} />
      </>
    );
  }
  return (
    <>
      {headers}
      {discs.map(({ disc, songs, start }, index) => {
        const title = disc === null ? 'Other tracks' : `Disc ${disc}`;
        return (
          <section key={disc ?? 'other'} className="section" aria-labelledby={`${headingId}-${index}`}>
            <h2 id={`${headingId}-${index}`} className="section-title">
              {title}
            </h2>
            <TrackList album={album} songs={songs} label={title} startsAt={start} />
          </section>
        );
      })}
    </>
  );
}

/** Admins: a file picker that uploads the album's new cover at once. */
function ChangeCover({ album }: { album: Album }) {
  const alerts = useAlerts();
  const setCover = useSetAlbumCover(album.id);
  return (
    <label className="button button--ghost album-header__change-cover" aria-disabled={setCover.isPending}>
      <CameraIcon size={18} />
      {setCover.isPending ? 'Uploading…' : 'Change cover'}
      <input
        type="file"
        accept="image/*"
        className="visually-hidden"
        disabled={setCover.isPending}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          setCover.mutate(file, {
            onSuccess: () => {
              alerts.success(UiMessages.albumCoverUpdated);
            },
            onError: (error) => {
              alerts.error(UiMessages.failedToUpdateAlbumCover, describeError(error));
            },
          });
        }}
      />
    </label>
  );
}

function AlbumView({ album }: { album: Album }) {
  const user = useCurrentUser();
  const controls = usePlayerControls();
  const [choosingPlaylist, setChoosingPlaylist] = useState(false);
  const [editing, setEditing] = useState(false);
  const empty = album.songs.length === 0;
  const meta = [
    album.year === null ? null : String(album.year),
    countLabel(album.songs.length),
    empty ? null : albumLength(album.durationMs),
  ].filter((part) => part !== null);
  return (
    <>
      <header className="page-header page-header--album">
        <Cover src={album.imgLink} width={640} className="page-header__art album-header__cover" />
        <div className="page-header__text">
          <p className="eyebrow">{album.placeholder ? PLACEHOLDER_META : 'Album'}</p>
          <h1 className="page-title page-title--hero">{album.name}</h1>
          <p className="page-header__meta">
            <ArtistLink album={album} />
            {meta.map((part) => (
              <span key={part}> · {part}</span>
            ))}
          </p>
          <AlbumRating album={album} />
        </div>
        <div className="page-header__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={empty}
            onClick={() => {
              controls.playList(album.songs, 0);
            }}
          >
            <PlayIcon size={18} />
            Play album
          </button>
          <button
            type="button"
            className="button button--ghost"
            disabled={empty}
            onClick={() => {
              setChoosingPlaylist(true);
            }}
          >
            <PlaylistAddIcon size={18} />
            Add album to playlist
          </button>
          <StartRadioButton songs={album.songs} label={album.name} />
          {isAdmin(user) && (
            <>
              <ChangeCover album={album} />
              <button
                type="button"
                className="button button--ghost"
                onClick={() => {
                  setEditing(true);
                }}
              >
                Edit album
              </button>
            </>
          )}
        </div>
      </header>
      <Tracks album={album} />
      {editing && (
        <EditAlbumDialog
          album={album}
          onClose={() => {
            setEditing(false);
          }}
        />
      )}
      {choosingPlaylist && (
        <SelectPlaylistDialog
          album={{ name: album.name, songs: album.songs }}
          onClose={() => {
            setChoosingPlaylist(false);
          }}
        />
      )}
    </>
  );
}

function AlbumSkeleton() {
  return (
    <div className="page-header page-header--album" aria-hidden="true">
      <span className="skeleton skeleton--square album-header__cover" />
      <span className="skeleton skeleton--line" />
    </div>
  );
}

/** `/dashboard/album?id=`: an album's cover, artist, year and tracks in disc and track order (issue 12). */
export function AlbumPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isSafeInteger(id) && id > 0;
  const album = useQuery({ ...albumQueries.detail(valid ? id : 0), enabled: valid });
  const missing = !valid || isApiError(album.error, 404, 400);
  return (
    <div className="page">
      <Link to={Paths.artist} className="back-link">
        <ArrowLeftIcon size={18} />
        All artists
      </Link>
      {missing ? (
        <NotFoundState
          title="Album not found"
          text={`${UiMessages.albumNotFound} It may have been removed, or merged into another by a scan.`}
          back={{ to: Paths.artist, label: 'Browse artists' }}
        />
      ) : album.data ? (
        <AlbumView album={album.data} />
      ) : album.isError ? (
        <div className="empty-state">
          <p>{UiMessages.albumUnavailable}</p>
          <button type="button" className="button button--ghost" onClick={() => void album.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <AlbumSkeleton />
      )}
    </div>
  );
}
