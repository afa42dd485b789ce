import { AppStorageKeys, readJson, writeJson } from '../../lib/storage.js';

const isKey = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(value);

function randomKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** This browser's device key (issue 27): made once, kept in local storage, so a reload is the same device. */
export function deviceKey(): string {
  const known = readJson(AppStorageKeys.deviceKey, isKey);
  if (known !== undefined) return known;
  const key = randomKey();
  writeJson(AppStorageKeys.deviceKey, key);
  return key;
}
