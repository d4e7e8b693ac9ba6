import type { TreeNode } from '@bogwan/contracts';
import { mdiChevronDown, mdiChevronRight } from '@mdi/js';
import Box from '@mui/material/Box';
import { alpha } from '@mui/material/styles';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../../components/mdi-icon';
import { useTree } from '../../api/get-tree';
import { droppedItems, isItemDrag, startItemDrag, type DraggedItem } from '../../lib/drag-items';
import { ancestorsOf } from '../../lib/storage-path';
import { FileIcon } from '../../../../components/file-icon';
import { handleTreeKey } from './tree-keys';

/** Delay of the open/close toggle of a clicked folder, so a quick second click does not flip it back. */
export const TREE_TOGGLE_DEBOUNCE_MS = 200;
/** Levels the server may mark as opened on first show. */
export const TREE_OPEN_DEPTH = 3;

export interface FolderTreeProps {
  /** The highlighted folder (the current one, or the one picked). */
  selectedPath: string | null;
  /** Its ancestors are opened (and it too), now and whenever it changes. */
  revealPath?: string | null;
  onSelect: (path: string) => void;
  /** Folders that cannot be picked (a folder being moved, and its insides). */
  isDisabled?: (path: string) => boolean;
  /** Items of the app dropped on a folder. */
  onDropItems?: (path: string, items: DraggedItem[]) => void;
  /** Files from the desktop dropped on a folder; read `dataTransfer` at once. */
  onDropFiles?: (path: string, dataTransfer: DataTransfer) => void;
  /** Folders can be dragged (onto another folder of the tree, to move them there). */
  draggableFolders?: boolean;
  label: string;
}

interface TreeContext extends FolderTreeProps {
  expanded: ReadonlySet<string>;
  toggle: (path: string) => void;
  /** The one item in the tab order (roving tabindex). */
  tabStop: string | null;
  onItemFocus: (path: string) => void;
}

function TreeItem({ node, depth, context }: { node: TreeNode; depth: number; context: TreeContext }) {
  const open = context.expanded.has(node.path);
  const children = useTree(node.path, open);
  const [over, setOver] = useState(false);
  const selected = context.selectedPath === node.path;
  const disabled = context.isDisabled?.(node.path) ?? false;
  const droppable = Boolean(context.onDropItems || context.onDropFiles);
  const empty = children.data !== undefined && children.data.length === 0;

  const accepts = (event: DragEvent) => droppable && !disabled && (isItemDrag(event.dataTransfer) || Array.from(event.dataTransfer.types).includes('Files'));

  return (
    <>
      <Box
        role="treeitem"
        aria-level={depth}
        aria-selected={selected}
        aria-expanded={empty ? undefined : open}
        aria-disabled={disabled || undefined}
        data-tree-path={node.path}
        tabIndex={context.tabStop === node.path ? 0 : -1}
        onFocus={(event) => {
          if (event.target === event.currentTarget) context.onItemFocus(node.path);
        }}
        onClick={() => {
          if (disabled) return;
          context.onSelect(node.path);
          context.toggle(node.path);
        }}
        draggable={context.draggableFolders && !disabled}
        onDragStart={(event) => {
          if (!context.draggableFolders) return;
          event.stopPropagation();
          startItemDrag(event.dataTransfer, [{ name: node.name, path: node.path, folder: true }]);
        }}
        onDragOver={(event) => {
          if (!accepts(event)) return;
          event.preventDefault();
          event.stopPropagation();
          event.dataTransfer.dropEffect = isItemDrag(event.dataTransfer) ? 'move' : 'copy';
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          setOver(false);
          if (!accepts(event)) return;
          event.preventDefault();
          event.stopPropagation();
          if (isItemDrag(event.dataTransfer)) context.onDropItems?.(node.path, droppedItems(event.dataTransfer));
          else context.onDropFiles?.(node.path, event.dataTransfer);
        }}
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          minHeight: 32,
          pl: 0.5 + (depth - 1) * 1.5,
          pr: 1,
          mx: 1,
          borderRadius: 1.5,
          cursor: disabled ? 'default' : 'pointer',
          opacity: disabled ? 0.45 : 1,
          userSelect: 'none',
          outline: over ? 2 : 0,
          outlineStyle: 'dashed',
          outlineColor: 'primary.main',
          bgcolor: (theme) => (over || selected ? alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity) : 'transparent'),
          color: selected ? 'primary.text' : 'text.primary',
          '&:hover': { bgcolor: disabled ? undefined : 'action.hover' },
          '&:focus-visible': { outline: 2, outlineStyle: 'solid', outlineColor: 'primary.main' },
        }}
      >
        <Box
          component="span"
          aria-hidden
          onClick={(event) => {
            // The chevron only opens and closes, even on a folder that cannot be picked.
            event.stopPropagation();
            context.toggle(node.path);
          }}
          sx={{ display: 'inline-flex', width: 20, justifyContent: 'center', color: 'text.secondary', flexShrink: 0 }}
        >
          {children.isFetching && open && !children.data ? (
            <CircularProgress size={12} />
          ) : empty ? null : (
            <MdiIcon path={open ? mdiChevronDown : mdiChevronRight} sx={{ fontSize: 18 }} />
          )}
        </Box>
        <FileIcon name={node.name} folder lock={node.lock} sx={{ fontSize: 18, flexShrink: 0 }} />
        <Typography variant="body2" noWrap sx={{ fontWeight: selected ? 600 : 400, minWidth: 0 }} title={node.name}>
          {node.name}
        </Typography>
      </Box>
      {open && children.data && children.data.length > 0 && (
        <Box role="group">
          {children.data.map((child) => (
            <TreeItem key={child._id} node={child} depth={depth + 1} context={context} />
          ))}
        </Box>
      )}
    </>
  );
}

/**
 * The folder tree: root folders first, children loaded when a folder opens
 * (`GET /api/file/tree?path=`). Clicking picks a folder and toggles it (debounced).
 */
export function FolderTree(props: FolderTreeProps) {
  const { t } = useTranslation();
  const roots = useTree('/');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(props.revealPath ? ancestorsOf(props.revealPath) : []));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // Opening a selected folder opens its ancestors.
  useEffect(() => {
    if (!props.revealPath) return;
    const wanted = ancestorsOf(props.revealPath);
    setExpanded((current) => (wanted.every((path) => current.has(path)) ? current : new Set([...current, ...wanted])));
  }, [props.revealPath]);

  // Folders the server marks as opened, within the default depth.
  useEffect(() => {
    const marked: string[] = [];
    const visit = (nodes: TreeNode[], depth: number) => {
      for (const node of nodes) {
        if (node.expanded && depth <= TREE_OPEN_DEPTH) marked.push(node.path);
        visit(node.children, depth + 1);
      }
    };
    visit(roots.data ?? [], 1);
    if (marked.length) setExpanded((current) => new Set([...current, ...marked]));
  }, [roots.data]);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const [focused, setFocused] = useState<string | null>(null);
  const treeRef = useRef<HTMLDivElement>(null);

  const toggle = useCallback((path: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      setExpanded((current) => {
        const next = new Set(current);
        if (next.has(path)) next.delete(path);
        else next.add(path);
        return next;
      });
    }, TREE_TOGGLE_DEBOUNCE_MS);
  }, []);

  const setOpen = useCallback((path: string, open: boolean) => {
    setExpanded((current) => {
      if (current.has(path) === open) return current;
      const next = new Set(current);
      if (open) next.add(path);
      else next.delete(path);
      return next;
    });
  }, []);

  // The item in the tab order: the last one focused, else the selected folder, else the first.
  const rootPaths = roots.data?.map((node) => node.path) ?? [];
  const tabStop = focused ?? props.selectedPath ?? rootPaths[0] ?? null;
  // When that item is not shown (its parent closed, or the selection is elsewhere), the first item takes the tab stop.
  useEffect(() => {
    const tree = treeRef.current;
    if (!tree || tree.querySelector('[role=treeitem][tabindex="0"]')) return;
    tree.querySelector<HTMLElement>('[role=treeitem]')?.setAttribute('tabindex', '0');
  });

  const context: TreeContext = { ...props, expanded, toggle, tabStop, onItemFocus: setFocused };
  if (roots.isPending) {
    return (
      <Box sx={{ px: 3, py: 1 }}>
        <CircularProgress size={16} aria-label={t('loading')} />
      </Box>
    );
  }
  // A tree with no items is not a tree (WAI-ARIA: a tree owns at least one treeitem).
  if (!roots.data || roots.data.length === 0) {
    return (
      <Typography variant="body2" sx={{ px: 3, py: 1, color: 'text.secondary' }}>
        {t('tree_empty')}
      </Typography>
    );
  }
  return (
    <Box ref={treeRef} role="tree" aria-label={props.label} onKeyDown={(event) => handleTreeKey(event, { select: props.onSelect, setOpen })} sx={{ py: 0.5 }}>
      {roots.data.map((node) => (
        <TreeItem key={node._id} node={node} depth={1} context={context} />
      ))}
    </Box>
  );
}
