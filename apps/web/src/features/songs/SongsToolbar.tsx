import { useState } from 'react';
import { NavigationType, useLocation, useNavigationType, useSearchParams } from 'react-router';
import { HeartIcon, SearchIcon } from '../../ui/icons.js';
import '../../ui/page.css';
import '../../ui/search-field.css';
import './SongsToolbar.css';

export type SongParams = ReturnType<typeof useSongParams>;

/**
 * The search box and the Liked chip, both kept in the URL (?q=, ?liked=1). The box has its own state: router updates
 * land a moment after the key press, and an input bound to the URL would drop a fast typist's keys. The URL follows
 * with replace navigations; any other navigation (a link, back/forward) puts the URL's text back in the box.
 */
export function useSongParams() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigationType = useNavigationType();
  const urlText = params.get('q') ?? '';
  const [text, setText] = useState(urlText);
  const [seenKey, setSeenKey] = useState(location.key);
  if (location.key !== seenKey) {
    setSeenKey(location.key);
    if (navigationType !== NavigationType.Replace && text !== urlText) setText(urlText);
  }
  const setParam = (key: string, value: string | null): void => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null || value === '') next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  };
  return {
    text,
    likedOnly: params.get('liked') === '1',
    setText: (value: string) => {
      setText(value);
      setParam('q', value);
    },
    setLiked: (liked: boolean) => {
      setParam('liked', liked ? '1' : null);
    },
  };
}

export function SongsToolbar({ text, likedOnly, setText, setLiked }: SongParams) {
  return (
    <div className="toolbar">
      <label className="search-field">
        <SearchIcon size={20} />
        <span className="visually-hidden">
          {likedOnly ? 'Search songs in Liked' : 'Search songs, artists and playlists'}
        </span>
        <input
          type="search"
          className="search-field__input"
          placeholder={likedOnly ? 'Filter your liked songs' : 'What do you want to listen to?'}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
          }}
        />
      </label>
      <button
        type="button"
        className="chip"
        aria-pressed={likedOnly}
        onClick={() => {
          setLiked(!likedOnly);
        }}
      >
        <HeartIcon size={16} />
        Liked
      </button>
    </div>
  );
}
