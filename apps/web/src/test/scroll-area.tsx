import { useCallback, useState, type ReactNode } from 'react';
import { ScrollContainerContext } from '../ui/useScrollContainer.js';

/**
 * The dashboard's scrolling main view for virtual lists under test, `height` px tall (jsdom lays nothing out, so
 * the height is given); scroll it by setting `scrollTop` on the `scroller` test id and firing `scroll`.
 */
export function ScrollArea({ height, children }: { height: number; children: ReactNode }) {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const attach = useCallback(
    (node: HTMLDivElement | null) => {
      if (node) Object.defineProperty(node, 'clientHeight', { configurable: true, value: height });
      setElement(node);
    },
    [height],
  );
  return (
    <div ref={attach} data-testid="scroller">
      <ScrollContainerContext value={element}>{element && children}</ScrollContainerContext>
    </div>
  );
}
