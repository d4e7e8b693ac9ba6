import type { FileEntry } from '@bogwan/contracts';

/** The drag type of items dragged inside the app (rows to tree folders). */
export const ITEMS_DRAG_TYPE = 'application/x-bogwan-items';

export type DraggedItem = Pick<FileEntry, 'name' | 'path' | 'folder'>;

let dragged: DraggedItem[] = [];

/** Starts an item drag: the items travel in the drag data and in memory (some browsers hide the data until drop). */
export function startItemDrag(dataTransfer: DataTransfer, items: DraggedItem[]): void {
  dragged = items;
  dataTransfer.effectAllowed = 'move';
  dataTransfer.setData(ITEMS_DRAG_TYPE, JSON.stringify(items));
  dataTransfer.setData('text/plain', items.map((item) => item.name).join('\n'));
}

export function isItemDrag(dataTransfer: DataTransfer | null): boolean {
  return Array.from(dataTransfer?.types ?? []).includes(ITEMS_DRAG_TYPE);
}

/** The items of an item drag, at drop time. */
export function droppedItems(dataTransfer: DataTransfer): DraggedItem[] {
  try {
    const parsed = JSON.parse(dataTransfer.getData(ITEMS_DRAG_TYPE)) as DraggedItem[];
    if (Array.isArray(parsed) && parsed.length > 0) return parsed;
  } catch {
    // fall back to the remembered items
  }
  return dragged;
}
