import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ratingText, StarRating } from './StarRating.js';

/** The control as a page uses it: the value it shows is the last one chosen. */
function Rated({ initial, onRate }: { initial: number | null; onRate: (rating: number) => void }) {
  const [rating, setRating] = useState(initial);
  return (
    <StarRating
      rating={rating}
      itemName="Kind of Blue"
      onRate={(next) => {
        onRate(next);
        setRating(next === 0 ? null : next);
      }}
    />
  );
}

describe('StarRating', () => {
  it('is a named group of five buttons, "Rate N stars", none pressed while unrated', () => {
    render(<StarRating rating={null} itemName="Kind of Blue" onRate={vi.fn()} />);
    const group = screen.getByRole('group', { name: 'Rating of Kind of Blue' });
    const buttons = screen.getAllByRole('button');
    expect(group).toContainElement(buttons[0] ?? null);
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual([
      'Rate 1 star',
      'Rate 2 stars',
      'Rate 3 stars',
      'Rate 4 stars',
      'Rate 5 stars',
    ]);
    expect(buttons.every((button) => button.getAttribute('aria-pressed') === 'false')).toBe(true);
    expect(screen.getByText('Not rated')).toHaveAttribute('aria-live', 'polite');
  });

  it('shows the current rating: its star pressed, the stars up to it lit, the value announced', () => {
    render(<StarRating rating={3} itemName="Kind of Blue" onRate={vi.fn()} />);
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((button) => button.getAttribute('aria-pressed'))).toEqual([
      'false',
      'false',
      'true',
      'false',
      'false',
    ]);
    expect(buttons.map((button) => button.dataset.lit)).toEqual(['true', 'true', 'true', 'false', 'false']);
    expect(screen.getByRole('button', { name: 'Clear the rating (3 stars)' })).toBeInTheDocument();
    expect(screen.getByText('Rated 3 stars of 5')).toBeInTheDocument();
  });

  it('rates on a click, and a click on the current rating clears it (0)', () => {
    const onRate = vi.fn();
    render(<Rated initial={null} onRate={onRate} />);
    fireEvent.click(screen.getByRole('button', { name: 'Rate 4 stars' }));
    expect(onRate).toHaveBeenLastCalledWith(4);
    expect(screen.getByText('Rated 4 stars of 5')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Rate 2 stars' }));
    expect(onRate).toHaveBeenLastCalledWith(2);
    fireEvent.click(screen.getByRole('button', { name: 'Clear the rating (2 stars)' }));
    expect(onRate).toHaveBeenLastCalledWith(0);
    expect(screen.getByText('Not rated')).toBeInTheDocument();
  });

  it('takes the keyboard: each star is a button in the tab order', () => {
    render(<StarRating rating={1} itemName="Kind of Blue" onRate={vi.fn()} />);
    for (const button of screen.getAllByRole('button')) {
      expect(button.tagName).toBe('BUTTON');
      expect(button).toHaveAttribute('type', 'button');
      expect(button.tabIndex).toBe(0);
    }
  });

  it('words a rating for the group and the announcement', () => {
    expect(ratingText(null)).toBe('Not rated');
    expect(ratingText(1)).toBe('Rated 1 star of 5');
    expect(ratingText(5)).toBe('Rated 5 stars of 5');
  });
});
