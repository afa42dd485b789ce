import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { dropIndex, shiftFor, useSortable } from './useSortable.js';

describe('drag arithmetic', () => {
  it('turns a pointer offset into a drop position, clamped to the list', () => {
    expect(dropIndex(2, 0, 64, 5)).toBe(2);
    expect(dropIndex(2, 70, 64, 5)).toBe(3);
    expect(dropIndex(2, -100, 64, 5)).toBe(0);
    expect(dropIndex(2, 1000, 64, 5)).toBe(4);
    expect(dropIndex(2, 50, 0, 5)).toBe(2);
  });

  it('moves the dragged item with the pointer and the others out of its way', () => {
    const down = { from: 1, to: 3, offsetY: 130, step: 64 };
    expect([0, 1, 2, 3, 4].map((i) => shiftFor(i, down))).toEqual([0, 130, -64, -64, 0]);
    const up = { from: 3, to: 1, offsetY: -120, step: 64 };
    expect([0, 1, 2, 3, 4].map((i) => shiftFor(i, up))).toEqual([0, 64, 64, -120, 0]);
  });
});

function Sortable() {
  const [items, setItems] = useState(['a', 'b', 'c']);
  const sortable = useSortable({
    keys: items,
    onMove: (from, to) => {
      const next = [...items];
      const [moved] = next.splice(from, 1);
      if (moved !== undefined) next.splice(to, 0, moved);
      setItems(next);
    },
    describeMove: (from, to) => `${items[from] ?? ''} to ${to + 1}`,
  });
  return (
    <>
      <ul>
        {items.map((item, index) => (
          <li key={item} data-sortable-item>
            <button type="button" aria-label={`Reorder ${item}`} {...sortable.handleProps(index)} />
          </li>
        ))}
      </ul>
      <p role="status">{sortable.announcement}</p>
    </>
  );
}

describe('useSortable with the keyboard', () => {
  it('moves the focused item with ArrowUp/ArrowDown, keeps its handle focused and announces the move', () => {
    render(<Sortable />);
    const handle = screen.getByRole('button', { name: 'Reorder c' });
    handle.focus();
    fireEvent.keyDown(handle, { key: 'ArrowUp' });
    const order = () => screen.getAllByRole('button').map((button) => button.getAttribute('aria-label'));
    expect(order()).toEqual(['Reorder a', 'Reorder c', 'Reorder b']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reorder c' }));
    expect(screen.getByRole('status').textContent).toBe('c to 2');
    fireEvent.keyDown(screen.getByRole('button', { name: 'Reorder a' }), { key: 'ArrowUp' });
    expect(order()).toEqual(['Reorder a', 'Reorder c', 'Reorder b']);
  });
});
