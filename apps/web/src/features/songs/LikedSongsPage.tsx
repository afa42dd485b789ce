import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { HeartIcon } from '../../ui/icons.js';
import { songQueries } from './queries.js';
import { filterSongs } from './song-filter.js';
import { listStatus, SongList } from './SongList.js';
import { countLabel, SongsHeader } from './SongsHeader.js';
import { SongsToolbar, type SongParams } from './SongsToolbar.js';
import '../../ui/empty-state.css';
import '../../ui/page.css';

/** Liked songs (`likes.list`), newest like first; the search box filters them here. */
export function LikedSongsPage({ params }: { params: SongParams }) {
  const query = useQuery(songQueries.liked());
  // An unliked song stays until the list is refetched, but not as liked: hide it at once.
  const liked = useMemo(() => (query.data ?? []).filter((song) => song.likeSong), [query.data]);
  const songs = useMemo(() => filterSongs(liked, params.text, false), [liked, params.text]);
  return (
    <div className="page">
      <SongsHeader
        eyebrow="Your favourites"
        title="Liked songs"
        meta={query.data ? countLabel(songs.length) : undefined}
        songs={songs}
      />
      <SongsToolbar {...params} />
      <SongList
        songs={songs}
        label="Liked songs"
        status={listStatus(query)}
        onRetry={() => void query.refetch()}
        emptyState={
          <div className="empty-state">
            <span className="empty-state__icon">
              <HeartIcon size={32} />
            </span>
            <p className="empty-state__title">{params.text ? 'No liked song matches' : 'No liked songs yet'}</p>
            <p>Press the heart on any song, here or in the player, to keep it in this list.</p>
          </div>
        }
      />
    </div>
  );
}
