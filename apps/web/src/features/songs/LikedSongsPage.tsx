import { useMemo } from 'react';
import type { SongSource } from '../../lib/song-sources.js';
import { HeartIcon } from '../../ui/icons.js';
import { PagedSongList } from './PagedSongList.js';
import { filterSongs } from './song-filter.js';
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
  const list = usePagedSongs(likedSource);
  // An unliked song stays until the list is refetched, but not as liked: hide it at once.
  const liked = useMemo(() => list.songs.filter((song) => song.likeSong), [list.songs]);
  const filtering = params.text.trim() !== '';
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
        emptyState={
          <div className="empty-state">
            <span className="empty-state__icon">
              <HeartIcon size={32} />
            </span>
            <p className="empty-state__title">{filtering ? 'No liked song matches' : 'No liked songs yet'}</p>
            <p>Press the heart on any song, here or in the player, to keep it in this list.</p>
          </div>
        }
      />
    </div>
  );
}
