import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { isAdmin, useCurrentUser } from '../../shell/auth/useAuth.js';
import { PlusIcon } from '../../ui/icons.js';
import { AddArtistDialog } from './AddArtistDialog.js';
import { ArtistCard, ArtistSkeletons } from './ArtistCard.js';
import { SortSelect, type SortChoice } from '../../ui/SortSelect.js';
import { artistQueries, type ArtistSort } from './queries.js';
import '../../ui/buttons.css';
import '../../ui/empty-state.css';
import '../../ui/page.css';
import '../../ui/tiles.css';

const ARTIST_SORTS: readonly SortChoice<ArtistSort>[] = [
  { value: 'name', label: 'Name' },
  { value: 'rating', label: 'Your rating' },
];

/**
 * `/dashboard/artist`: every artist; choosing one opens their songs. Sorted by name, or by the listener's stars
 * (`?sort=rating`, issue 28), kept in the address.
 */
export function ArtistPage() {
  const user = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const sort: ArtistSort = params.get('sort') === 'rating' ? 'rating' : 'name';
  // The grid in its previous order stays while the new one loads.
  const artists = useQuery({ ...artistQueries.list(sort), placeholderData: keepPreviousData });
  const [adding, setAdding] = useState(false);
  const list = artists.data ?? [];

  return (
    <div className="page">
      <header className="page-header">
        <div className="page-header__text">
          <p className="eyebrow">Browse</p>
          <h1 className="page-title">Artists</h1>
          {artists.data && (
            <p className="page-header__meta">
              {list.length} {list.length === 1 ? 'artist' : 'artists'}
            </p>
          )}
        </div>
        {isAdmin(user) && (
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              setAdding(true);
            }}
          >
            <PlusIcon size={18} />
            Add artist
          </button>
        )}
      </header>
      {artists.isPending && <ArtistSkeletons />}
      {artists.isError && (
        <div className="empty-state">
          <p>Artists could not be loaded.</p>
          <button type="button" className="button button--ghost" onClick={() => void artists.refetch()}>
            Try again
          </button>
        </div>
      )}
      {artists.isSuccess && list.length === 0 && (
        <div className="empty-state">
          <p className="empty-state__title">No artists yet</p>
          <p>{isAdmin(user) ? 'Add the first artist, then upload their songs.' : 'Check back soon.'}</p>
        </div>
      )}
      {list.length > 0 && (
        <SortSelect
          label="Sort artists"
          value={sort}
          choices={ARTIST_SORTS}
          onChange={(next) => {
            setParams(next === 'name' ? {} : { sort: next }, { replace: true });
          }}
        />
      )}
      {list.length > 0 && (
        <ul className="tile-grid" aria-label="Artists">
          {list.map((artist) => (
            <ArtistCard key={artist.id} artist={artist} />
          ))}
        </ul>
      )}
      {adding && (
        <AddArtistDialog
          onClose={() => {
            setAdding(false);
          }}
        />
      )}
    </div>
  );
}
