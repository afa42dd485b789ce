/*
 * URLs of stored blobs as the JSON answers carry them (DESIGN §4: link/imgLink are URLs on this server). Relative to
 * the origin, so they work behind any host name; keys are content hashes, so the URLs never change meaning.
 */
export const imageUrl = (key: string): string => `/media/images/${encodeURIComponent(key)}`;
export const audioUrl = (key: string): string => `/media/audio/${encodeURIComponent(key)}`;
