import type { KeyboardEvent } from 'react';

/** A shown tree item, in the order the tree shows them. */
export interface ShownItem {
  path: string;
  level: number;
  /** null for a folder without children. */
  expanded: boolean | null;
  disabled: boolean;
}

export type TreeKeyAction = { kind: 'focus'; index: number } | { kind: 'open'; path: string; open: boolean } | { kind: 'select'; path: string } | null;

/**
 * What a key does on the item at `index`, following the WAI-ARIA tree pattern: up and
 * down move between shown items, Home and End to the first and last, right opens a
 * closed folder or moves into an open one, left closes an open folder or moves to the
 * parent, Enter and Space pick the folder.
 */
export function treeKeyAction(key: string, items: ShownItem[], index: number): TreeKeyAction {
  const item = items[index];
  if (!item) return null;
  switch (key) {
    case 'ArrowDown':
      return index + 1 < items.length ? { kind: 'focus', index: index + 1 } : null;
    case 'ArrowUp':
      return index > 0 ? { kind: 'focus', index: index - 1 } : null;
    case 'Home':
      return { kind: 'focus', index: 0 };
    case 'End':
      return { kind: 'focus', index: items.length - 1 };
    case 'ArrowRight':
      if (item.expanded === false) return { kind: 'open', path: item.path, open: true };
      if (item.expanded === true && items[index + 1]?.level === item.level + 1) return { kind: 'focus', index: index + 1 };
      return null;
    case 'ArrowLeft': {
      if (item.expanded === true) return { kind: 'open', path: item.path, open: false };
      for (let i = index - 1; i >= 0; i -= 1) if (items[i]!.level === item.level - 1) return { kind: 'focus', index: i };
      return null;
    }
    case 'Enter':
    case ' ':
      return item.disabled ? null : { kind: 'select', path: item.path };
    default:
      return null;
  }
}

/** The tree's keyboard handler: reads the shown items from the DOM and applies `treeKeyAction`. */
export function handleTreeKey(
  event: KeyboardEvent<HTMLElement>,
  actions: { select: (path: string) => void; setOpen: (path: string, open: boolean) => void },
): void {
  const current = (event.target as HTMLElement).closest<HTMLElement>('[role=treeitem]');
  if (!current) return;
  const elements = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role=treeitem]'));
  const items = elements.map((element) => {
    const expanded = element.getAttribute('aria-expanded');
    return {
      path: element.dataset.treePath ?? '',
      level: Number(element.getAttribute('aria-level')),
      expanded: expanded === null ? null : expanded === 'true',
      disabled: element.getAttribute('aria-disabled') === 'true',
    };
  });
  const action = treeKeyAction(event.key, items, elements.indexOf(current));
  if (!action) return;
  event.preventDefault();
  event.stopPropagation();
  if (action.kind === 'focus') elements[action.index]?.focus();
  else if (action.kind === 'open') actions.setOpen(action.path, action.open);
  else actions.select(action.path);
}
