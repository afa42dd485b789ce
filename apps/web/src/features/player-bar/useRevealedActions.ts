import {
  useEffect,
  useRef,
  useState,
  type FocusEvent,
  type MouseEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';

/** How long a finger rests on a row before its actions show (a long-press). */
export const LONG_PRESS_MS = 500;
/** A finger that moves further than this (px) is scrolling, not pressing. */
const LONG_PRESS_SLOP = 10;

export interface RevealedActions {
  /** Whether the row's actions are shown. */
  shown: boolean;
  /** Spread on the row. */
  rowProps: {
    'data-actions': 'shown' | 'hidden';
    onMouseEnter: () => void;
    onMouseLeave: () => void;
    onFocus: () => void;
    onBlur: (event: FocusEvent<HTMLElement>) => void;
    onPointerDown: (event: ReactPointerEvent<HTMLElement>) => void;
    onPointerMove: (event: ReactPointerEvent<HTMLElement>) => void;
    onPointerUp: () => void;
    onPointerCancel: () => void;
    onContextMenu: (event: MouseEvent<HTMLElement>) => void;
  };
}

/**
 * A row whose actions stay out of the way of its text: they show while the mouse is over the row, while the keyboard
 * focus is inside it, and after a long-press (touch) until the next press outside the row.
 */
export function useRevealedActions(): RevealedActions {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [pressed, setPressed] = useState(false);
  const row = useRef<HTMLElement | null>(null);
  const press = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number } | null>(null);

  const cancelPress = (): void => {
    if (press.current) clearTimeout(press.current.timer);
    press.current = null;
  };

  useEffect(() => cancelPress, []);

  useEffect(() => {
    if (!pressed) return undefined;
    const onOutside = (event: Event): void => {
      if (!(event.target instanceof Node) || !row.current?.contains(event.target)) setPressed(false);
    };
    document.addEventListener('pointerdown', onOutside);
    return () => {
      document.removeEventListener('pointerdown', onOutside);
    };
  }, [pressed]);

  const shown = hovered || focused || pressed;
  return {
    shown,
    rowProps: {
      'data-actions': shown ? 'shown' : 'hidden',
      onMouseEnter: () => {
        setHovered(true);
      },
      onMouseLeave: () => {
        setHovered(false);
      },
      onFocus: () => {
        setFocused(true);
      },
      onBlur: (event) => {
        if (!(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))) {
          setFocused(false);
        }
      },
      onPointerDown: (event) => {
        cancelPress();
        // A press on a control (the drag handle, an action) is that control's.
        if (!event.isPrimary || (event.target instanceof Element && event.target.closest('button'))) return;
        row.current = event.currentTarget;
        press.current = {
          x: event.clientX,
          y: event.clientY,
          timer: setTimeout(() => {
            press.current = null;
            setPressed(true);
          }, LONG_PRESS_MS),
        };
      },
      onPointerMove: (event) => {
        const start = press.current;
        if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > LONG_PRESS_SLOP) cancelPress();
      },
      onPointerUp: cancelPress,
      onPointerCancel: cancelPress,
      onContextMenu: (event) => {
        // A long-press on a touch screen also asks for the context menu: the row's actions answer it instead.
        if (press.current || pressed) event.preventDefault();
      },
    },
  };
}
