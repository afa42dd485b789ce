import type sharpModule from 'sharp';

export type Sharp = typeof sharpModule;

let loaded: Promise<Sharp> | undefined;

/**
 * sharp (libvips) loaded on the first image to process: a server that is only streaming never maps it (about 10 MB of
 * resident memory). Its operation cache is off: every upload is decoded once, so a cache would only hold memory.
 */
export function loadSharp(): Promise<Sharp> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loaded;
}
