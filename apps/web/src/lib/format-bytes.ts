const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** Storage sizes as people read them: 980 bytes, 1.5 MB, 12 MB, 1.2 GB (decimal units, like file managers). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '0 bytes';
  if (bytes < 1000) return `${Math.round(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes;
  let unit: (typeof UNITS)[number] = 'KB';
  for (const next of UNITS) {
    value /= 1000;
    unit = next;
    if (value < 1000) break;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit}`;
}
