import { useMemo } from 'react';
import type { SongSource } from '../../lib/song-sources.js';
import { HeartIcon } from '../../ui/icons.js';
import { PagedSongList } from './PagedSongList.js';
import { filterSongs } from './song-filter.js';
import { sortSongs, useSongOrder } from './song-order.js';
import { countLabel, SongsHeader } from './SongsHeader.js';
import { SongsToolbar, type SongParams } from './SongsToolbar.js';
import { usePagedSongs } from './useSongs.js';
import '../../ui/empty-state.css';
import '../../ui/page.css';

const likedSource: SongSource = { kind: 'liked' };

/**
 * Liked songs (`likes.page`), newest like first, a page at a time. The search box filters the loaded songs here, and
 * the list keeps loading pages while the filter leaves the view short.
 */
export function LikedSongsPage({ params }: { params: SongParams }) {
  // Issue 26: sorted here, over every liked song (all pages load while the list is sorted by a column).
  const [order, setOrder] = useSongOrder('liked');
  const sorted = order.by !== 'list';
  const list = usePagedSongs(likedSource, { loadAll: sorted });
  // An unliked song stays until the list is refetched, but not as liked: hide it at once.
  const liked = useMemo(
    () =>
      sortSongs(
        list.songs.filter((song) => song.likeSong),
        order,
      ),
    [list.songs, order],
  );
  const filtering = params.text.trim() !== '' || sorted;
  const songs = useMemo(() => filterSongs(liked, params.text, false), [liked, params.text]);
  // A filtered list plays as it is shown; the whole list plays on through the pages not loaded yet.
  const paging = useMemo(
    () => (filtering ? { ...list.paging, source: undefined, total: undefined } : list.paging),
    [filtering, list.paging],
  );
  return (
    <div className="page">
      <SongsHeader
        eyebrow="Your favourites"
        title="Liked songs"
        meta={list.total === undefined ? undefined : countLabel(list.total)}
        songs={songs}
        source={paging.source}
        nextCursor={paging.nextCursor}
      />
      <SongsToolbar {...params} />
      <PagedSongList
        list={{ ...list, paging }}
        songs={songs}
        label="Liked songs"
        ordering={{ kind: 'liked', order, onChange: setOrder }}
        emptyState={
          <div className="empty-state">
            <span className="empty-state__icon">
              <HeartIcon size={32} />
            </span>
            <p className="empty-state__title">
              {params.text.trim() !== '' ? 'No liked song matches' : 'No liked songs yet'}
            </p>
            <p>Press the heart on any song, here or in the player, to keep it in this list.</p>
          </div>
        }
      />
    </div>
  );
}
