import { RATING_MAX } from '@tonearm/contract';
import { StarFilledIcon, StarIcon } from './icons.js';
import './buttons.css';
import './StarRating.css';

const STARS = Array.from({ length: RATING_MAX }, (_unused, index) => index + 1);

/** "3 stars", "1 star". */
const starsText = (count: number): string => `${count} ${count === 1 ? 'star' : 'stars'}`;

/** What a rating reads as, for the group's name and the live announcement. */
export const ratingText = (rating: number | null): string =>
  rating === null ? 'Not rated' : `Rated ${starsText(rating)} of ${RATING_MAX}`;

export interface StarRatingProps {
  /** The caller's stars, null when unrated. */
  rating: number | null;
  /** The item's name, for the group's accessible name ("Rating of Kind of Blue"). */
  itemName: string;
  /** 1–5, or 0 to clear. */
  onRate: (rating: number) => void;
  size?: 'small' | 'large';
}

/**
 * Issue 28: five stars, each a button ("Rate 3 stars"); the current one is pressed, and choosing it again clears the
 * rating. Buttons take Tab, Enter and Space like any other; the value is the group's name and is announced when it
 * changes (a polite live region).
 */
export function StarRating({ rating, itemName, onRate, size = 'small' }: StarRatingProps) {
  const iconSize = size === 'large' ? 22 : 18;
  return (
    <div role="group" aria-label={`Rating of ${itemName}`} className={`star-rating star-rating--${size}`}>
      {STARS.map((stars) => {
        const lit = rating !== null && stars <= rating;
        const current = rating === stars;
        return (
          <button
            key={stars}
            type="button"
            className="star-rating__star"
            aria-label={current ? `Clear the rating (${starsText(stars)})` : `Rate ${starsText(stars)}`}
            aria-pressed={current}
            data-lit={lit}
            onClick={() => {
              onRate(current ? 0 : stars);
            }}
          >
            {lit ? <StarFilledIcon size={iconSize} /> : <StarIcon size={iconSize} />}
          </button>
        );
      })}
      <span className="visually-hidden" aria-live="polite">
        {ratingText(rating)}
      </span>
    </div>
  );
}
