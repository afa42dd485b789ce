import type { Song } from '@tonearm/contract';
import { listStatus, SongList, type SongListProps } from './SongList.js';
import type { PagedSongs } from './useSongs.js';

/** A SongList over a paged source (`usePagedSongs`): its status, Try again, and loading more on scroll. */
export function PagedSongList({
  list,
  songs = list.songs,
  ...props
}: Omit<SongListProps, 'songs' | 'status' | 'onRetry' | 'paging'> & {
  list: PagedSongs;
  /** The songs shown, when the page narrows the loaded ones (e.g. a filter); default: every loaded song. */
  songs?: readonly Song[];
}) {
  return (
    <SongList
      {...props}
      songs={songs}
      status={listStatus(list.query)}
      onRetry={() => void list.query.refetch()}
      paging={list.paging}
    />
  );
}
