import type { FileEntry } from '@bogwan/contracts';
import type { MouseEvent, DragEvent, KeyboardEvent } from 'react';
import type { FolderListing } from '../../hooks/use-folder-listing';
import type { LongPressHandlers } from '../../hooks/use-long-press';
import type { ListSort } from '../../api/list-files';

/** What the list and grid views share: the listing, the selection and the row handlers. */
export interface ViewProps {
  listing: FolderListing;
  selected: ReadonlySet<string>;
  sort: ListSort;
  onSort: (sort: ListSort) => void;
  onItemClick: (event: MouseEvent, index: number, entry: FileEntry) => void;
  onItemOpen: (entry: FileEntry) => void;
  onItemContextMenu: (event: MouseEvent, index: number, entry: FileEntry) => void;
  /** A key pressed on a focused item (Shift+F10 and the Menu key open its menu). */
  onItemKeyDown: (event: KeyboardEvent<HTMLElement>, index: number, entry: FileEntry) => void;
  onItemDragStart: (event: DragEvent, entry: FileEntry) => void;
  /** Drop handlers of one item: a folder takes items of the app dragged onto it (a move); a file takes none. */
  itemDrop: (entry: FileEntry) => ItemDropHandlers;
  /** Touch handlers of one item: a long-press selects it and opens its menu. */
  itemPress: (target: { index: number; entry: FileEntry }) => LongPressHandlers;
  locale: string;
}

/** What an item does with a drag over it and a drop on it. */
export interface ItemDropHandlers {
  onDragOver?: (event: DragEvent) => void;
  onDrop?: (event: DragEvent) => void;
}
