import { THUMBNAIL_WIDTHS, type ThumbnailWidth, isImageUrl } from '@tonearm/contract';

export type ImageWidth = ThumbnailWidth;

/**
 * Server images have pre-made webp thumbnails (DESIGN §4): ask for the width that is drawn, replacing any width the
 * link already names. Other images (bundled assets) are used as they are.
 */
export function imageUrl(src: string, width: ImageWidth): string {
  if (!isImageUrl(src) || !THUMBNAIL_WIDTHS.includes(width)) return src;
  const url = new URL(src, 'http://tonearm.invalid');
  url.searchParams.set('w', String(width));
  return `${url.pathname}${url.search}`;
}
