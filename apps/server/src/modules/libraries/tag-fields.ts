import type { IAudioMetadata, ICommonTagsResult, ITag } from 'music-metadata';

/**
 * The people fields and the original date, named as music-metadata's common fields are. music-metadata loses things
 * these need (an ALBUMARTISTS tag, TMCL, a Vorbis PERFORMER, "AC/DC" in ID3v2.3, which it splits on "/", and whether
 * ARTISTS was tagged or filled in from ARTIST), so they are read from the file's own tags.
 */
export type TagField =
  | 'artist'
  | 'artists'
  | 'albumartist'
  | 'albumartists'
  | 'composer'
  | 'lyricist'
  | 'conductor'
  | 'remixer'
  | 'arranger'
  | 'producer'
  | 'engineer'
  | 'mixer'
  | 'djmixer'
  | 'performer'
  | 'originaldate'
  | 'compilation';

/** How each kind of tag names a field: Vorbis comments and APEv2 (KEY=value), ID3v2.3/2.4, ID3v2.2, MP4, ID3v1. */
type Kind = 'keys' | 'id3' | 'id3v22' | 'mp4' | 'id3v1';

/** The tag types read here, in music-metadata's order of preference, and how each names its fields. */
const TAG_TYPES: readonly (readonly [type: string, kind: Kind])[] = [
  ['APEv2', 'keys'],
  ['vorbis', 'keys'],
  ['ID3v2.4', 'id3'],
  ['ID3v2.3', 'id3'],
  ['ID3v2.2', 'id3v22'],
  ['iTunes', 'mp4'],
  ['ID3v1', 'id3v1'],
];

const itunes = (name: string) => `----:com.apple.iTunes:${name}`;

/** The ids of each field by kind, compared without regard to case. */
const IDS: Record<TagField, Partial<Record<Kind, readonly string[]>>> = {
  artist: { keys: ['ARTIST'], id3: ['TPE1'], id3v22: ['TP1'], mp4: ['©ART'], id3v1: ['artist'] },
  artists: { keys: ['ARTISTS'], id3: ['TXXX:ARTISTS'], mp4: [itunes('ARTISTS')] },
  albumartist: { keys: ['ALBUMARTIST', 'ALBUM ARTIST'], id3: ['TPE2'], id3v22: ['TP2'], mp4: ['aART'] },
  albumartists: { keys: ['ALBUMARTISTS'], id3: ['TXXX:ALBUMARTISTS'], mp4: [itunes('ALBUMARTISTS')] },
  composer: { keys: ['COMPOSER'], id3: ['TCOM'], id3v22: ['TCM'], mp4: ['©wrt'] },
  lyricist: { keys: ['LYRICIST'], id3: ['TEXT'], id3v22: ['TXT'], mp4: [itunes('LYRICIST')] },
  conductor: { keys: ['CONDUCTOR'], id3: ['TPE3'], id3v22: ['TP3'], mp4: [itunes('CONDUCTOR')] },
  remixer: { keys: ['REMIXER', 'MIXARTIST'], id3: ['TPE4'], id3v22: ['TP4'], mp4: [itunes('REMIXER')] },
  // ID3 keeps these four in TIPL (IPLS in v2.3): see involvedPeople.
  arranger: { keys: ['ARRANGER'], mp4: [itunes('ARRANGER')] },
  producer: { keys: ['PRODUCER'], mp4: [itunes('PRODUCER')] },
  engineer: { keys: ['ENGINEER'], mp4: [itunes('ENGINEER')] },
  mixer: { keys: ['MIXER'], mp4: [itunes('MIXER')] },
  djmixer: { keys: ['DJMIXER'], mp4: [itunes('DJMIXER')] },
  // "Name (instrument)"; ID3 keeps performers in TMCL (IPLS in v2.3).
  performer: { keys: ['PERFORMER'] },
  originaldate: { keys: ['ORIGINALDATE'], id3: ['TDOR', 'TXXX:ORIGINALDATE'], mp4: [itunes('ORIGINALDATE')] },
  // music-metadata reads TCMP, COMPILATION and cpil itself; ffmpeg writes the flag to ID3 as these two TXXX frames.
  compilation: { id3: ['TXXX:COMPILATION', 'TXXX:TCMP'] },
};

/** The text values of `ids` in one tag type's list, in the order tagged. */
function textsOf(tags: readonly ITag[], ids: readonly string[]): string[] {
  const wanted = new Set(ids.map((id) => id.toUpperCase()));
  return tags.flatMap((tag) => (wanted.has(tag.id.toUpperCase()) && typeof tag.value === 'string' ? [tag.value] : []));
}

/**
 * music-metadata splits ID3v2.2/2.3 text on "/" (those versions' separator) unless the frame uses NUL instead, which it
 * warns about. Names are never split on "/", so the pieces of one frame are joined back ("AC/DC"; the spaces around a
 * slash are lost: "A / B" reads "A/B"); NUL-separated values stay apart.
 */
function unsplitSlashes(metadata: IAudioMetadata, type: string, id: string, values: string[]): string[] {
  if (values.length < 2 || (type !== 'ID3v2.3' && type !== 'ID3v2.2')) return values;
  const frame = id.split(':')[0] ?? id;
  const nulSeparated = metadata.quality.warnings.some(
    (warning) => warning.message === `${type} ${frame} uses non standard null-separator.`,
  );
  return nulSeparated ? values : [values.join('/')];
}

/** A common field's value as a list of texts (music-metadata's fallback for tag types not read here). */
function commonTexts(common: ICommonTagsResult, field: TagField): string[] {
  const value: unknown = common[field as keyof ICommonTagsResult];
  const values: unknown[] = Array.isArray(value) ? value : [value];
  return values.filter((text): text is string => typeof text === 'string');
}

/**
 * A field's texts as the file holds them: several values stay several, nothing is split or cleaned yet. The first tag
 * type (in music-metadata's order) that has the field answers. A file with none of the tag types read here (Matroska,
 * ASF, RIFF INFO, AIFF) answers music-metadata's common field instead.
 */
export function tagTexts(metadata: IAudioMetadata, field: TagField): string[] {
  let readHere = false;
  for (const [type, kind] of TAG_TYPES) {
    const tags = metadata.native[type];
    if (tags === undefined) continue;
    readHere = true;
    for (const id of IDS[field][kind] ?? []) {
      const values = unsplitSlashes(metadata, type, id, textsOf(tags, [id]));
      if (values.length > 0) return values;
    }
  }
  return readHere ? [] : commonTexts(metadata.common, field);
}

/** One function of an ID3 involved-people list and its names: TIPL ("producer"), TMCL ("guitar"), IPLS (both). */
export interface InvolvedPeople {
  list: 'TIPL' | 'TMCL' | 'IPLS';
  function: string;
  names: string[];
}

/** music-metadata's reading of TIPL, TMCL and IPLS: names by function. */
function isFunctionList(value: unknown): value is Record<string, unknown[]> {
  return typeof value === 'object' && value !== null && Object.values(value).every(Array.isArray);
}

/** The involved-people lists of the file's ID3v2.3/2.4 tag, in the order tagged. */
export function involvedPeople(metadata: IAudioMetadata): InvolvedPeople[] {
  const tags = metadata.native['ID3v2.4'] ?? metadata.native['ID3v2.3'] ?? [];
  return tags.flatMap((tag) => {
    if ((tag.id !== 'TIPL' && tag.id !== 'TMCL' && tag.id !== 'IPLS') || !isFunctionList(tag.value)) return [];
    const list = tag.id;
    return Object.entries(tag.value).map(([name, names]) => ({
      list,
      function: name,
      names: names.filter((text): text is string => typeof text === 'string'),
    }));
  });
}
