import { useEffect, useState } from 'react';

/**
 * Distance from the top of `container`'s scrollable content to `element`, kept current while anything above
 * the element changes size (an artist image loading, a header wrapping).
 */
export function useOffsetWithin(element: HTMLElement | null, container: HTMLElement | null): number {
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    if (!element || !container || typeof ResizeObserver === 'undefined') return;
    const measure = (): void => {
      const top = element.getBoundingClientRect().top - container.getBoundingClientRect().top + container.scrollTop;
      setOffset(Math.round(top));
    };
    const observer = new ResizeObserver(measure);
    observer.observe(container);
    if (container.firstElementChild) observer.observe(container.firstElementChild);
    return () => {
      observer.disconnect();
    };
  }, [element, container]);
  return offset;
}
