import type { KeyboardEvent } from 'react';

/**
 * A row of controls with one tab stop (tabs, a toggle group): the arrow keys (wrapping), Home
 * and End move the focus among the `selector` elements inside `container`.
 */
export function moveFocusInRow(event: KeyboardEvent, container: HTMLElement | null, selector: string): void {
  const items = [...(container?.querySelectorAll<HTMLElement>(selector) ?? [])];
  const current = items.indexOf(document.activeElement as HTMLElement);
  if (current < 0) return;
  const next = ({ ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: items.length - 1 } as Partial<Record<string, number>>)[event.key];
  if (next === undefined) return;
  event.preventDefault();
  items[(next + items.length) % items.length]?.focus();
}
