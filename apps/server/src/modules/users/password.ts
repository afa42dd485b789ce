import { randomBytes } from 'node:crypto';

/** argon2id (the library's default algorithm) with the OWASP baseline: 19 MiB, 2 passes, 1 lane. */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// The native argon2 binding is loaded on the first sign-in or registration, not at start-up.
const argon2 = () => import('@node-rs/argon2');

export async function hashPassword(password: string): Promise<string> {
  const { hash } = await argon2();
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  const { verify } = await argon2();
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a mismatch, not a crash.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as a real check when the account does not exist, so response timing does not reveal which
 * usernames are registered. Always false.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  await verifyPassword(await dummyHash, password);
  return false;
}
