import { createContext, useContext } from 'react';

/** The element the dashboard scrolls (the main view); virtual lists measure against it. */
export const ScrollContainerContext = createContext<HTMLElement | null>(null);

export function useScrollContainer(): HTMLElement | null {
  return useContext(ScrollContainerContext);
}
