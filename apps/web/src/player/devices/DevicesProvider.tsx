import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { usePlayerRuntime } from '../usePlayer.js';
import { connectDevices } from './connect-devices.js';
import { createDevicesStore, type DevicesState, type DevicesStore } from './devices-store.js';

const DevicesContext = createContext<DevicesStore | null>(null);

/** Connects this browser as a device of the signed-in user while mounted (inside the PlayerProvider). */
export function DevicesProvider({ children, enabled }: { children: ReactNode; enabled: boolean }) {
  const runtime = usePlayerRuntime();
  const [store] = useState(createDevicesStore);
  useEffect(() => (enabled ? connectDevices(runtime, store) : undefined), [runtime, store, enabled]);
  return <DevicesContext value={store}>{children}</DevicesContext>;
}

export function useDevicesStore(): DevicesStore | null {
  return useContext(DevicesContext);
}

/** One slice of the devices' state (null outside a DevicesProvider). */
export function useDevicesState<T>(selector: (state: DevicesState) => T): T | null {
  const store = useDevicesStore();
  const read = () => (store === null ? null : selector(store.getState()));
  return useSyncExternalStore(store?.subscribe ?? (() => () => undefined), read, read);
}
