import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Renders only the rows in view (plus a few either side), so ten thousand rows cost what thirty
 * do. Rows have one fixed height; `onNearEnd` asks for the next page before the end is reached.
 */
export function VirtualList<T>(props: {
  items: T[];
  rowHeight: number;
  label: string;
  render: (item: T, index: number) => ComponentChildren;
  onNearEnd?: () => void;
}) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (viewport.current) viewport.current.scrollTop = 0;
    setScrollTop(0);
  }, [props.items.length === 0]);
  const overscan = 6;
  const first = Math.max(0, Math.floor(scrollTop / props.rowHeight) - overscan);
  const last = Math.min(props.items.length, Math.ceil((scrollTop + height) / props.rowHeight) + overscan);
  useEffect(() => {
    if (props.onNearEnd && last >= props.items.length - overscan * 3) props.onNearEnd();
  }, [last, props.items.length]);
  const rows = [];
  for (let index = first; index < last; index++) {
    rows.push(
      <li key={index} role="listitem" class="virtual-row" style={{ transform: `translateY(${index * props.rowHeight}px)`, height: `${props.rowHeight}px` }}>
        {props.render(props.items[index]!, index)}
      </li>,
    );
  }
  return (
    <div ref={viewport} class="virtual-viewport" onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)} tabIndex={-1}>
      <ul role="list" aria-label={props.label} class="virtual-list" style={{ height: `${props.items.length * props.rowHeight}px` }}>
        {rows}
      </ul>
    </div>
  );
}
