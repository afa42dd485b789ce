import { CONTRIBUTOR_ROLES, type ArtistCreditRole, type SongArtist, type SongContributor } from '@tonearm/contract';

/** How a role reads (its name in the tags otherwise, capitalised). */
const ROLE_NAMES: Readonly<Record<string, string>> = {
  composer: 'Composer',
  lyricist: 'Lyricist',
  arranger: 'Arranger',
  conductor: 'Conductor',
  performer: 'Performer',
  producer: 'Producer',
  remixer: 'Remixer',
  mixer: 'Mixer',
  engineer: 'Engineer',
  djmixer: 'DJ mixer',
};

/** "Composer", "Performer (guitar)", "DJ mixer". */
export function roleLabel({ role, subRole }: ArtistCreditRole): string {
  const name = ROLE_NAMES[role] ?? (role === '' ? role : role.charAt(0).toUpperCase() + role.slice(1));
  return subRole === null || subRole === '' ? name : `${name} (${subRole})`;
}

/** Roles in CONTRIBUTOR_ROLES order (composer first), any other role after them. */
function roleRank(role: string): number {
  const rank = (CONTRIBUTOR_ROLES as readonly string[]).indexOf(role);
  return rank < 0 ? CONTRIBUTOR_ROLES.length : rank;
}

/** One line of a song's credits: a role (with its instrument or voice) and the artists credited with it. */
export interface CreditLine {
  label: string;
  artists: SongArtist[];
}

/**
 * A song's contributors as lines, one per role and sub-role ("Composer: X, Y", "Performer (guitar): Z"), in
 * CONTRIBUTOR_ROLES order; the artists of a line in the order the song lists them. None for a song without any.
 */
export function creditLines(contributors: readonly SongContributor[] | undefined): CreditLine[] {
  const lines = new Map<string, CreditLine & { rank: number }>();
  for (const contributor of contributors ?? []) {
    const key = `${contributor.role}\u0000${contributor.subRole ?? ''}`;
    let line = lines.get(key);
    if (line === undefined) {
      line = { label: roleLabel(contributor), artists: [], rank: roleRank(contributor.role) };
      lines.set(key, line);
    }
    if (!line.artists.some((artist) => artist.id === contributor.artistId)) {
      line.artists.push({ id: contributor.artistId, name: contributor.artistName });
    }
  }
  return [...lines.values()].sort((a, b) => a.rank - b.rank).map(({ label, artists }) => ({ label, artists }));
}

/** An artist's roles on a song, as a line: "Composer, Producer". */
export function rolesText(roles: readonly ArtistCreditRole[]): string {
  return [...roles]
    .sort((a, b) => roleRank(a.role) - roleRank(b.role))
    .map(roleLabel)
    .join(', ');
}
