import { makeIcon } from './icons.js';

/*
 * Issue 28's icons, apart from icons.tsx: that module is part of the signed-out first page's JavaScript (its budget is
 * 100 KB), and these are only drawn inside the dashboard.
 */

/** Issue 28: the statistics pages (bars rising from a baseline). */
export const ChartIcon = makeIcon(
  'ChartIcon',
  <>
    <path d="M3 21h18" />
    <path d="M6 17v-5" />
    <path d="M11 17V7" />
    <path d="M16 17v-8" />
    <path d="M21 17V4" />
  </>,
);

/** Issue 28: song radio (waves from a point). */
export const RadioIcon = makeIcon(
  'RadioIcon',
  <>
    <circle cx="12" cy="12" r="2" />
    <path d="M8.5 8.5a5 5 0 0 0 0 7" />
    <path d="M15.5 8.5a5 5 0 0 1 0 7" />
    <path d="M5.6 5.6a9 9 0 0 0 0 12.8" />
    <path d="M18.4 5.6a9 9 0 0 1 0 12.8" />
  </>,
);
