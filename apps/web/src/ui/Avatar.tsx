import type { User } from '@tonearm/contract';
import { useState } from 'react';
import { imageUrl } from '../lib/images.js';
import './Avatar.css';

/** The user's photo, or the first letter of their name when there is none (or it fails to load). */
export function Avatar({ user, size = 'md' }: { user: Pick<User, 'username' | 'image'>; size?: 'sm' | 'md' | 'lg' }) {
  const [failed, setFailed] = useState<string | null>(null);
  const classes = size === 'md' ? 'avatar' : `avatar avatar--${size}`;
  if (user.image !== null && failed !== user.image) {
    const src = user.image;
    return (
      <img
        className={`${classes} avatar--photo`}
        src={imageUrl(src, size === 'lg' ? 300 : 64)}
        alt=""
        onError={() => {
          setFailed(src);
        }}
      />
    );
  }
  return (
    <span className={classes} aria-hidden="true">
      {user.username.slice(0, 1).toUpperCase()}
    </span>
  );
}
