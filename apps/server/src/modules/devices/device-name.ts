import { DEVICE_NAME_MAX, plainText } from '@tonearm/contract';

/** Browsers by the token their user agent carries, the more specific first (Edge and Opera also say Chrome). */
const BROWSERS: readonly [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/iPhone|iPod/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** A web client's first name: "Firefox on Linux", from its user agent ("Web browser" when it says nothing we know). */
export function deviceNameFromAgent(userAgent: string | undefined): string {
  const agent = plainText(userAgent ?? '');
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  const name =
    browser === undefined ? (system ?? 'Web browser') : system === undefined ? browser : `${browser} on ${system}`;
  return name.slice(0, DEVICE_NAME_MAX);
}
