import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { readCrossfade, readGapless } from '../../lib/crossfade.js';
import { CrossfadeSetting } from './CrossfadeSetting.js';

describe('the crossfade setting', () => {
  afterEach(() => {
    localStorage.clear();
  });

  it('is off by default and keeps what is chosen, 0 to 12 s, in this browser', () => {
    render(<CrossfadeSetting />);
    const slider = screen.getByRole('slider', { name: 'Crossfade' });
    expect(slider).toHaveValue('0');
    expect(readCrossfade()).toBe(0);
    fireEvent.change(slider, { target: { value: '6' } });
    expect(readCrossfade()).toBe(6);
    expect(screen.getByText('6 s')).toBeInTheDocument();
  });

  it('turns gapless playback off and on (on by default)', () => {
    render(<CrossfadeSetting />);
    const box = screen.getByRole('checkbox', { name: 'Gapless playback' });
    expect(box).toBeChecked();
    fireEvent.click(box);
    expect(readGapless()).toBe(false);
    expect(box).not.toBeChecked();
    fireEvent.click(box);
    expect(readGapless()).toBe(true);
  });

  it('ignores a stored value out of range', () => {
    localStorage.setItem('tonearm.crossfade', '40');
    expect(readCrossfade()).toBe(0);
  });
});
