/** Same instant, the one text form every timestamp column uses. */
export const isoNow = (): string => new Date().toISOString();
