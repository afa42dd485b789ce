import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The key file of a server without SECRET_KEY, in DATA_DIR: 32 random bytes as 64 hex digits, mode 0600. */
export const KEY_FILE_NAME = 'secret.key';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** HKDF's `info`: a key derived for this use only, whatever else the same secret may one day key. */
const KEY_INFO = 'tonearm subsonic app passwords v1';

/** The 32-byte AES key of a secret (SECRET_KEY, or the key file's bytes), by HKDF-SHA256. */
function deriveKey(secret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), KEY_INFO, 32));
}

/**
 * The key file: read when it exists, else made with 32 random bytes. `wx` creates it only if nobody else did, so two
 * first uses at once (or two instances on one DATA_DIR) end up with the same key.
 */
async function keyFileSecret(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, KEY_FILE_NAME);
  try {
    return parseKeyFile(await readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32);
  try {
    const handle = await open(file, 'wx', 0o600);
    try {
      await handle.writeFile(`${secret.toString('hex')}\n`);
    } finally {
      await handle.close();
    }
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return parseKeyFile(await readFile(file, 'utf8'), file);
  }
}

function parseKeyFile(text: string, file: string): Buffer {
  const hex = text.trim();
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file} must hold 64 hexadecimal digits (a 32-byte key)`);
  return Buffer.from(hex, 'hex');
}

/**
 * Values encrypted at rest (the app passwords of Subsonic apps, which must be read back to check md5 tokens):
 * AES-256-GCM with a random IV per value, written `v1:<iv>:<tag>:<ciphertext>` in base64url. `context` is bound to
 * the value as associated data (e.g. the user's id), so a value copied to another row does not decrypt there.
 */
export class SecretBox {
  private key: Promise<Buffer> | undefined;

  /** `secretKey`: SECRET_KEY, or null for the key file in `dataDir`, made on first use. */
  constructor(
    private readonly secretKey: string | null,
    private readonly dataDir: string,
  ) {}

  private keyOf(): Promise<Buffer> {
    this.key ??= (
      this.secretKey === null ? keyFileSecret(this.dataDir) : Promise.resolve(Buffer.from(this.secretKey, 'utf8'))
    ).then(deriveKey);
    // A failed read (a bad key file) is tried again next time rather than remembered.
    this.key.catch(() => {
      this.key = undefined;
    });
    return this.key;
  }

  async seal(plain: string, context: string): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', await this.keyOf(), iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join(':');
  }

  /** The plain value, or null when it cannot be read: another key, another context, a damaged or unknown format. */
  async open(sealed: string, context: string): Promise<string | null> {
    const [version, iv, tag, ciphertext, ...rest] = sealed.split(':');
    if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined || rest.length > 0) {
      return null;
    }
    const key = await this.keyOf();
    try {
      const ivBytes = Buffer.from(iv, 'base64url');
      const tagBytes = Buffer.from(tag, 'base64url');
      if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) return null;
      const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
