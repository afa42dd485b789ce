import { SubsonicMessages, isAdmin, type Library } from '@tonearm/contract';
import type { LibrariesService } from '../../libraries/libraries.service.js';
import { subsonicFail, type MethodTable } from '../subsonic-method.js';

/** What the scan methods read of the libraries. */
export type ScanLibraries = Pick<LibrariesService, 'list' | 'requestAll'>;

/**
 * `scanStatus` as OpenSubsonic answers it (`scanning` and `count`, nothing else): scanning while any library's scan
 * runs; `count` the files gone through by the running scans, else the songs of every library.
 */
function scanStatus(libraries: readonly Library[]) {
  const running = libraries.filter((library) => library.scan?.state === 'running');
  const count =
    running.length > 0
      ? running.reduce((sum, library) => sum + (library.scan?.done ?? 0), 0)
      : libraries.reduce((sum, library) => sum + library.songCount - library.missingCount, 0);
  return { scanStatus: { scanning: running.length > 0, count } };
}

/** Media library scanning: `getScanStatus` for anyone, `startScan` (every library) for administrators (error 50). */
export function scanningMethods(libraries: ScanLibraries): MethodTable {
  return {
    getScanStatus: { run: async () => scanStatus(await libraries.list()) },
    startScan: {
      run: async ({ caller }) => {
        if (!isAdmin(caller.user)) throw subsonicFail('notAuthorized', SubsonicMessages.scanNeedsAdmin);
        await libraries.requestAll();
        const all = await libraries.list();
        const status = scanStatus(all);
        // The scans were asked for: say so even before the first one has started.
        return { scanStatus: { ...status.scanStatus, scanning: status.scanStatus.scanning || all.length > 0 } };
      },
    },
  };
}
