import { describe, expect, it } from 'vitest';
import { imageUrl } from './images.js';

describe('imageUrl', () => {
  it('asks the server for the thumbnail width that is drawn', () => {
    expect(imageUrl('/media/images/abc.jpg', 64)).toBe('/media/images/abc.jpg?w=64');
  });

  it('replaces a width the link already carries', () => {
    expect(imageUrl('/media/images/abc.jpg?w=300', 64)).toBe('/media/images/abc.jpg?w=64');
  });

  it('leaves bundled assets alone', () => {
    expect(imageUrl('/welcome-cover.svg', 64)).toBe('/welcome-cover.svg');
  });
});
