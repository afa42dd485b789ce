import { useState } from 'react';
import { imageUrl, type ImageWidth } from '../lib/images.js';
import { MusicIcon } from './icons.js';
import './Cover.css';

export interface CoverProps {
  src: string | null;
  /** Thumbnail width requested from /media/images (64, 300 or 640). */
  width: ImageWidth;
  shape?: 'rounded' | 'circle';
  className?: string;
  /** Covers sit beside the visible name, so they are decorative unless told otherwise. */
  alt?: string;
}

/** Cover art with a calm placeholder when there is no image or it fails to load. */
export function Cover({ src, width, shape = 'rounded', className, alt = '' }: CoverProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const classes = ['cover', `cover--${shape}`, className].filter(Boolean).join(' ');
  if (src === null || src === '' || failedSrc === src) {
    return (
      <span className={`${classes} cover--empty`} role={alt === '' ? undefined : 'img'} aria-label={alt || undefined}>
        <MusicIcon />
      </span>
    );
  }
  return (
    <img
      className={classes}
      src={imageUrl(src, width)}
      alt={alt}
      loading="lazy"
      decoding="async"
      width={width}
      height={width}
      onError={() => {
        setFailedSrc(src);
      }}
    />
  );
}
