import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  LYRICS_MAX_BYTES,
  LyricsMessages,
  parseLyrics,
  toLrc,
  type LyricsSource,
  type SongLyrics,
} from '@tonearm/contract';
import { useState } from 'react';
import { api } from '../../lib/api.js';
import { isApiError } from '../../lib/api-client.js';
import { lyricsQuery } from '../../lib/lyrics.js';
import { lyricsKeys } from '../../lib/query-keys.js';
import { FileInput } from '../../ui/FileInput.js';
import { FormField } from '../../ui/FormField.js';
import './LyricsField.css';

/** Where the lyrics the form opened with came from, as the field's hint says it. */
const SOURCE_LABELS: Record<LyricsSource, string> = {
  embedded: 'Now from the audio file’s tags.',
  sidecar: 'Now from the lyrics file beside the audio.',
  uploaded: 'Now as saved here.',
};

export const LYRICS_HINT =
  'LRC ("[01:23.45] a line", word times too) or plain text. Saved here, they stay when the file is scanned again; ' +
  'emptied, the song has none.';
export const LYRICS_FILE_HINT = 'An .lrc or .txt file; it replaces the text above.';
export const LYRICS_UNAVAILABLE = 'The song’s lyrics could not be loaded: they are left as they are.';

/** The lyrics as the form shows them: their LRC (or plain text), '' for none. */
function shownLyrics(lyrics: SongLyrics | null): string {
  return lyrics === null ? '' : toLrc(lyrics);
}

/** What saving sends: nothing, the text, a file, or a removal. */
type LyricsChange =
  { kind: 'none' } | { kind: 'text'; text: string } | { kind: 'file'; file: File } | { kind: 'remove' };

/**
 * The song form's lyrics (issue 27, editing a song; `songId` null when adding, which sends none: a new song's lyrics
 * come from its audio file's tags): the song's lyrics as LRC or text to change, or a file to send.
 * `problem()` checks what would be sent (pasted LRC with the parser the server uses, naming the line); `save()` sends
 * it (PUT, or DELETE when emptied) before the song's own form, and throws the server's refusal.
 */
export function useLyricsEdit(songId: number | null) {
  const queryClient = useQueryClient();
  const query = useQuery({ ...lyricsQuery(songId ?? 0), enabled: songId !== null });
  const [edited, setEdited] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const loaded = query.data === undefined ? null : shownLyrics(query.data);
  const text = edited ?? loaded ?? '';

  const change = (): LyricsChange => {
    if (file) return { kind: 'file', file };
    if (edited === null || loaded === null || edited.trim() === loaded.trim()) return { kind: 'none' };
    return edited.trim() === '' ? { kind: 'remove' } : { kind: 'text', text: edited };
  };

  const problem = (): string | null => {
    const next = change();
    if (next.kind === 'file') return next.file.size > LYRICS_MAX_BYTES ? LyricsMessages.tooLarge : null;
    if (next.kind !== 'text') return null;
    const parsed = parseLyrics(next.text);
    return parsed.ok ? null : parsed.problem.message;
  };

  const save = async (): Promise<void> => {
    const next = change();
    if (next.kind === 'none' || songId === null) return;
    if (next.kind === 'remove') await api.lyrics.remove({ id: songId });
    else
      await api.lyrics.put({
        id: songId,
        form: next.kind === 'file' ? { lyricsFile: next.file } : { text: next.text },
      });
    setEdited(null);
    setFile(null);
    await queryClient.invalidateQueries({ queryKey: lyricsKeys.song(songId) });
  };

  return {
    text,
    file,
    source: query.data?.source ?? null,
    ready: query.isSuccess,
    failed: query.isError,
    setText: setEdited,
    setFile,
    problem,
    save,
  };
}

export type LyricsEdit = ReturnType<typeof useLyricsEdit>;

/** A refusal of the lyrics by the server (bad LRC, too long, not text), as the field's error; null for others. */
export function lyricsRefusal(error: unknown): string | null {
  return isApiError(error, 400, 413, 415) ? error.message : null;
}

/** The Lyrics and Lyrics file fields of the song form. */
export function LyricsFields({ edit, error }: { edit: LyricsEdit; error: string | undefined }) {
  const hint = edit.failed
    ? LYRICS_UNAVAILABLE
    : edit.source === null
      ? LYRICS_HINT
      : `${SOURCE_LABELS[edit.source]} ${LYRICS_HINT}`;
  return (
    <>
      <FormField label="Lyrics" error={edit.file ? undefined : error} optional hint={hint}>
        {(control) => (
          <textarea
            {...control}
            name="lyrics"
            className="input lyrics-field"
            rows={6}
            spellCheck={false}
            disabled={!edit.ready || edit.file !== null}
            value={edit.text}
            onChange={(event) => {
              edit.setText(event.target.value);
            }}
          />
        )}
      </FormField>
      <FormField label="Lyrics file" error={edit.file ? error : undefined} optional hint={LYRICS_FILE_HINT}>
        {(control) => (
          <FileInput
            {...control}
            name="lyricsFile"
            accept=".lrc,.txt,text/plain"
            onFile={(chosen) => {
              edit.setFile(chosen);
            }}
          />
        )}
      </FormField>
    </>
  );
}
