import {
  useEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';

export interface SortableOptions {
  /** A stable key per item, in the current order (song ids). */
  keys: readonly (string | number)[];
  /** Called once per finished move (drop, or one arrow key press). */
  onMove: (from: number, to: number) => void;
  /** Spoken after a move, e.g. "Night Ferry moved to position 3 of 8" (indices from before the move). */
  describeMove: (from: number, to: number) => string;
}

interface Drag {
  from: number;
  to: number;
  startY: number;
  offsetY: number;
  /** Height of one item including the gap to the next, measured when the drag starts. */
  step: number;
}

export interface HandleProps {
  ref: (element: HTMLElement | null) => void;
  onPointerDown: (event: ReactPointerEvent<HTMLElement>) => void;
  onPointerMove: (event: ReactPointerEvent<HTMLElement>) => void;
  onPointerUp: (event: ReactPointerEvent<HTMLElement>) => void;
  onPointerCancel: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  'aria-describedby'?: string;
}

/** Where `from` lands when the pointer has moved `offsetY` pixels in steps of `step`. */
export function dropIndex(from: number, offsetY: number, step: number, count: number): number {
  if (step <= 0) return from;
  return Math.min(count - 1, Math.max(0, from + Math.round(offsetY / step)));
}

/** How far item `index` shifts while `drag` is in progress: the dragged one follows the pointer, others make room. */
export function shiftFor(index: number, drag: { from: number; to: number; offsetY: number; step: number }): number {
  if (index === drag.from) return drag.offsetY;
  if (drag.from < drag.to && index > drag.from && index <= drag.to) return -drag.step;
  if (drag.to < drag.from && index >= drag.to && index < drag.from) return drag.step;
  return 0;
}

function itemOf(element: HTMLElement): HTMLElement {
  return element.closest<HTMLElement>('[data-sortable-item]') ?? element;
}

/**
 * Reordering for a plain (not virtualised) list: drag a handle with mouse, pen or finger, or focus it and press
 * ArrowUp/ArrowDown. Items carry `data-sortable-item`; the list applies `itemStyle(index)` to them.
 */
export function useSortable({ keys, onMove, describeMove }: SortableOptions) {
  const count = keys.length;
  const [drag, setDrag] = useState<Drag | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const handles = useRef(new Map<string | number, HTMLElement>());
  // The moved item's handle gets focus back once the list shows the new order (which may arrive a moment later).
  const focusAfterMove = useRef<{ key: string | number; to: number } | null>(null);

  useEffect(() => {
    const pending = focusAfterMove.current;
    if (pending?.key === undefined || keys.indexOf(pending.key) !== pending.to) return;
    focusAfterMove.current = null;
    handles.current.get(pending.key)?.focus();
  });

  const finish = (from: number, to: number): void => {
    const key = keys[from];
    if (from === to || key === undefined) return;
    onMove(from, to);
    setAnnouncement(describeMove(from, to));
    focusAfterMove.current = { key, to };
  };

  const handleProps = (index: number): HandleProps => ({
    ref: (element) => {
      const key = keys[index];
      if (key === undefined) return;
      if (element) handles.current.set(key, element);
      else handles.current.delete(key);
    },
    onPointerDown: (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      event.currentTarget.setPointerCapture(event.pointerId);
      const item = itemOf(event.currentTarget);
      const next = item.nextElementSibling;
      const step = next ? next.getBoundingClientRect().top - item.getBoundingClientRect().top : item.offsetHeight;
      setDrag({ from: index, to: index, startY: event.clientY, offsetY: 0, step: Math.abs(step) || item.offsetHeight });
    },
    onPointerMove: (event) => {
      if (!drag) return;
      const offsetY = event.clientY - drag.startY;
      setDrag({ ...drag, offsetY, to: dropIndex(drag.from, offsetY, drag.step, count) });
    },
    onPointerUp: () => {
      if (!drag) return;
      setDrag(null);
      finish(drag.from, drag.to);
    },
    onPointerCancel: () => {
      setDrag(null);
    },
    onKeyDown: (event) => {
      const to = event.key === 'ArrowUp' ? index - 1 : event.key === 'ArrowDown' ? index + 1 : null;
      if (to === null || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      if (to >= 0 && to < count) finish(index, to);
    },
  });

  const itemStyle = (index: number): CSSProperties | undefined => {
    if (!drag) return undefined;
    const shift = shiftFor(index, drag);
    const dragged = index === drag.from;
    return {
      transform: shift === 0 ? undefined : `translateY(${shift}px)`,
      transition: dragged ? 'none' : 'transform 150ms ease',
      position: 'relative',
      zIndex: dragged ? 2 : undefined,
    };
  };

  return { handleProps, itemStyle, draggingIndex: drag?.from ?? null, announcement };
}
