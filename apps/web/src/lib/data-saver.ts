import { useSyncExternalStore } from 'react';
import { AppStorageKeys, readJson, subscribeKey, writeJson } from './storage.js';

/**
 * The "data saver" setting of the profile: kept in this browser's localStorage (it is about this device's
 * connection, so it does not follow the account to other devices). On, the player streams Opus at 128 kbit/s.
 */
export function readDataSaver(): boolean {
  return readJson(AppStorageKeys.dataSaver, (value): value is boolean => typeof value === 'boolean') ?? false;
}

export function writeDataSaver(on: boolean): void {
  writeJson(AppStorageKeys.dataSaver, on);
}

const subscribe = (listener: () => void) => subscribeKey(AppStorageKeys.dataSaver, listener);

/** The setting, live (this tab and others). */
export function useDataSaver(): boolean {
  return useSyncExternalStore(subscribe, readDataSaver, readDataSaver);
}
