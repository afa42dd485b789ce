import { describe, expect, it } from 'vitest';
import {
  audioUrl,
  imageUrl,
  isAudioUrl,
  isImageUrl,
  isMediaUrl,
  MEDIA_AUDIO_PATH,
  MEDIA_IMAGES_PATH,
} from './media-urls.js';

describe('media URLs', () => {
  const sha = 'ab'.repeat(32);

  it('are the paths every client already knows, keys as they are', () => {
    expect(audioUrl(`${sha}.mp3`)).toBe(`/media/audio/${sha}.mp3`);
    expect(imageUrl(`${sha}.png`)).toBe(`/media/images/${sha}.png`);
    expect(imageUrl(`${sha}.png`, 300)).toBe(`/media/images/${sha}.png?w=300`);
    expect(imageUrl(`${sha}-64.webp`)).toBe(`/media/images/${sha}-64.webp`);
  });

  it('escape anything beyond the blob-key alphabet rather than change the path', () => {
    expect(audioUrl('a/../b?c')).toBe('/media/audio/a%2F..%2Fb%3Fc');
  });

  it('are recognised by their prefix, with or without a query', () => {
    expect(isAudioUrl(`${audioUrl('k.flac')}?format=opus`)).toBe(true);
    expect(isImageUrl(imageUrl('k.png', 64))).toBe(true);
    expect(isImageUrl('/assets/cover.svg')).toBe(false);
    expect(isMediaUrl(audioUrl('k.mp3'))).toBe(true);
    expect(MEDIA_AUDIO_PATH).toBe('/media/audio/');
    expect(MEDIA_IMAGES_PATH).toBe('/media/images/');
  });
});
