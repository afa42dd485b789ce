import { SMART_PREVIEW_SONGS, type SmartDefinition, type SmartPreview } from '@tonearm/contract';
import type { RoleValue } from '../../db/schema.js';
import type { SmartPlaylistsRepository } from './smart-playlists.repository.js';

/** How long a smart playlist's songs stand before a read chooses them again. */
export const SMART_REFRESH_MS = 5_000;

/** The libraries hidden from a user (LibraryAccess.hiddenFrom). */
export type HiddenLibrariesOf = (user: { id: number; role: RoleValue }) => Promise<readonly number[]>;

/** Writes a smart playlist's chosen songs (PlaylistsRepository.replaceSmartSongs). */
export type SmartSongsWriter = (playlistId: number, songIds: readonly number[], now: string) => Promise<boolean>;

/** What the playlists and songs services ask of smart playlists before reading one's songs. */
export interface SmartRefresher {
  /** Chooses the songs of those of `ids` that are smart and were not chosen in the last SMART_REFRESH_MS. */
  refresh(ids: readonly number[], force?: boolean): Promise<void>;
}

/**
 * Smart playlists (issue 28, docs/smart-playlists.md). A smart playlist's songs are kept in `playlist_songs` like any
 * playlist's, chosen again by its rules when it is read and its last choice is older than SMART_REFRESH_MS: so it
 * follows the library, plays, ratings and likes, and every reader of playlists (the web app, Subsonic, M3U8 export,
 * pages, search) works on it unchanged. The rules read the owner's ratings, likes and plays, within the libraries the
 * owner may see; each reader is shown what of that lies in libraries they may see.
 */
export class SmartPlaylistsService implements SmartRefresher {
  /** When each playlist's songs were last chosen here (each instance keeps its own). */
  private readonly chosenAt = new Map<number, number>();
  private readonly running = new Map<number, Promise<void>>();

  constructor(
    private readonly repository: SmartPlaylistsRepository,
    private readonly writeSongs: SmartSongsWriter,
    private readonly hiddenOf: HiddenLibrariesOf,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** POST /api/playlists/smart/preview: what `definition` chooses for the caller now (the editor's live count). */
  async preview(viewer: { id: number; hiddenLibraries: readonly number[] }, definition: SmartDefinition) {
    const songs = await this.repository.choose(definition, { userId: viewer.id, hidden: viewer.hiddenLibraries });
    const preview: SmartPreview = {
      count: songs.length,
      durationMs: songs.reduce((total, song) => total + (song.duration_ms ?? 0), 0),
      firstSongIds: songs.slice(0, SMART_PREVIEW_SONGS).map((song) => song.id),
    };
    return preview;
  }

  async refresh(ids: readonly number[], force = false): Promise<void> {
    const clock = this.now().getTime();
    const due = [...new Set(ids)].filter((id) => force || clock - (this.chosenAt.get(id) ?? 0) >= SMART_REFRESH_MS);
    if (due.length === 0) return;
    const waiting = due.flatMap((id) => (this.running.has(id) && !force ? [this.running.get(id)] : []));
    const rows = await this.repository.smartOf(due.filter((id) => force || !this.running.has(id)));
    const work = rows.map((row) => {
      const job = this.choose(row.id, JSON.parse(row.smart_rules) as SmartDefinition, row).finally(() => {
        this.running.delete(row.id);
      });
      this.running.set(row.id, job);
      return job;
    });
    await Promise.all([...waiting, ...work]);
  }

  private async choose(
    id: number,
    definition: SmartDefinition,
    owner: { owner_id: number; owner_role: RoleValue },
  ): Promise<void> {
    const now = this.now();
    const hidden = await this.hiddenOf({ id: owner.owner_id, role: owner.owner_role });
    const songs = await this.repository.choose(definition, { userId: owner.owner_id, hidden }, now);
    await this.writeSongs(
      id,
      songs.map((song) => song.id),
      now.toISOString(),
    );
    this.chosenAt.set(id, now.getTime());
  }
}
