import { Fragment, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { MoreIcon } from './icons.js';
import './buttons.css';
import './MenuButton.css';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  icon?: ReactNode;
  tone?: 'danger';
}

interface OpenState {
  /** Which item takes focus when the menu opens. */
  focusIndex: number;
  style: { top?: number; bottom?: number; right: number };
}

const ITEM_HEIGHT = 44;
const MENU_PADDING = 12;

function placeMenu(button: HTMLElement, itemCount: number): OpenState['style'] {
  const rect = button.getBoundingClientRect();
  const right = Math.max(8, window.innerWidth - rect.right);
  const height = itemCount * ITEM_HEIGHT + MENU_PADDING;
  if (rect.bottom + height + 8 > window.innerHeight && rect.top > height) {
    return { bottom: window.innerHeight - rect.top + 4, right };
  }
  return { top: rect.bottom + 4, right };
}

/**
 * WAI-ARIA menu button: Enter/Space/ArrowDown open on the first item, ArrowUp on the last; arrows, Home and End
 * move; Escape closes and returns focus to the button; choosing an item closes first, then runs the action.
 * The menu is portalled with fixed position so scroll containers (the virtual song list) never clip it.
 */
export function MenuButton({ label, items, className }: { label: string; items: MenuItem[]; className?: string }) {
  const [open, setOpen] = useState<OpenState | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const openAt = (focusIndex: number): void => {
    if (!buttonRef.current) return;
    setOpen({ focusIndex, style: placeMenu(buttonRef.current, items.length) });
  };

  const close = (returnFocus: boolean): void => {
    setOpen(null);
    if (returnFocus) buttonRef.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[open.focusIndex]?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent): void => {
      const target = event.target as Node;
      if (menuRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      setOpen(null);
    };
    const onViewportChange = (): void => {
      setOpen(null);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    window.addEventListener('resize', onViewportChange);
    document.addEventListener('scroll', onViewportChange, true);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true);
      window.removeEventListener('resize', onViewportChange);
      document.removeEventListener('scroll', onViewportChange, true);
    };
  }, [open]);

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>): void => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openAt(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(items.length - 1);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const nodes = Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const current = nodes.findIndex((node) => node === document.activeElement);
    const focusAt = (index: number): void => {
      nodes[(index + nodes.length) % nodes.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        focusAt(current + 1);
        break;
      case 'ArrowUp':
        focusAt(current - 1);
        break;
      case 'Home':
        focusAt(0);
        break;
      case 'End':
        focusAt(nodes.length - 1);
        break;
      case 'Escape':
        close(true);
        break;
      case 'Tab':
        close(true);
        break;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={className ?? 'icon-button'}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open ? menuId : undefined}
        onClick={() => {
          if (open) close(false);
          else openAt(0);
        }}
        onKeyDown={onButtonKeyDown}
      >
        <MoreIcon />
      </button>
      {open &&
        createPortal(
          <div
            ref={menuRef}
            id={menuId}
            role="menu"
            aria-label={label}
            className="menu"
            style={open.style}
            onKeyDown={onMenuKeyDown}
          >
            {items.map((item, index) => (
              <Fragment key={item.label}>
                {/* A destructive item is set apart from the one above it (issue 26: Delete sat right under Edit). */}
                {item.tone === 'danger' && index > 0 && <div role="separator" className="menu__separator" />}
                <button
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className={item.tone === 'danger' ? 'menu__item menu__item--danger' : 'menu__item'}
                  onClick={() => {
                    close(true);
                    item.onSelect();
                  }}
                >
                  {item.icon}
                  <span>{item.label}</span>
                </button>
              </Fragment>
            ))}
          </div>,
          document.body,
        )}
    </>
  );
}
