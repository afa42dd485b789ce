import { Gender, premiumRunning, type User, imageUrl } from '@tonearm/contract';
import type { UserRow } from '../../db/schema.js';

/** The User JSON of DESIGN §4. Never includes the password hash or secrets. */
export function toUserJson(row: UserRow, now: Date = new Date()): User {
  const gender = Gender.safeParse(row.gender);
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    gender: gender.success ? gender.data : null,
    role: row.role,
    address: row.address,
    image: row.image_key === null ? null : imageUrl(row.image_key),
    premium: premiumRunning(row.premium_until, now),
    premiumUntil: row.premium_until,
  };
}
