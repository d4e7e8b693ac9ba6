import type { FileEntry } from '@bogwan/contracts';
import { mdiAlertCircleOutline, mdiFolderOpenOutline, mdiFolderPlusOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../api/client';
import { MdiIcon } from '../../../../components/mdi-icon';
import { notify } from '../../../../components/notify';
import { messageText } from '../../../../i18n/keys';
import { useLocale } from '../../../../i18n/use-locale';
import { useAuth } from '../../../../state/auth';
import { useViewMode } from '../../../../state/ui';
import { useCopyItems } from '../../api/copy-items';
import { usePermission } from '../../api/get-permission';
import { refreshFiles } from '../../api/keys';
import type { ListSort } from '../../api/list-files';
import { useMoveItems } from '../../api/move-items';
import { useStarItem } from '../../api/star-item';
import { useTrashItems } from '../../api/trash-items';
import { useFolderListing } from '../../hooks/use-folder-listing';
import { useLongPress } from '../../hooks/use-long-press';
import { droppedItems, isItemDrag, startItemDrag } from '../../lib/drag-items';
import { useDropMove } from '../../hooks/use-drop-move';
import type { ItemDropHandlers } from './view-props';
import { clickSelection, EMPTY_SELECTION, type Selection } from '../../lib/selection';
import { isWithin, parentOf } from '../../lib/storage-path';
import type { ExtraItemAction } from '../../../../lib/item-actions';
import { allowedActions, type ItemAction } from '../context-menu/item-actions';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { Deferred } from '../../../../components/deferred';
import { ExplorerBreadcrumbs } from './explorer-breadcrumbs';
import { ExplorerToolbar } from './explorer-toolbar';
import { ListView } from './list-view';

// The dialogs load their code when first opened.
const CreateFolderDialog = lazy(() => import('../dialogs/create-folder-dialog').then((m) => ({ default: m.CreateFolderDialog })));
const FolderPickerDialog = lazy(() => import('../dialogs/folder-picker-dialog').then((m) => ({ default: m.FolderPickerDialog })));
const RenameDialog = lazy(() => import('../dialogs/rename-dialog').then((m) => ({ default: m.RenameDialog })));
// So do the item menu (MUI's Menu and Popover), the grid view and the selection bar, when first needed.
const ItemContextMenu = lazy(() => import('../context-menu/item-context-menu').then((m) => ({ default: m.ItemContextMenu })));
const GridView = lazy(() => import('./grid-view').then((m) => ({ default: m.GridView })));
const SelectionActionBar = lazy(() => import('./selection-action-bar').then((m) => ({ default: m.SelectionActionBar })));

export interface FileExplorerProps {
  /** The folder shown ('/' lists the root folders). */
  path: string;
  onNavigate: (path: string) => void;
  onOpenFile: (entry: FileEntry) => void;
  onDownload: (entries: FileEntry[]) => void;
  /** Rendered in the toolbar (the upload button), given whether the user may add files here. */
  renderUpload?: (canCreate: boolean) => ReactNode;
  /** Actions other features add to the context menu (share, lock, requests). */
  extraActions?: ExtraItemAction[];
}

function EmptyState({ icon, title, description, action }: { icon: string; title: string; description?: string; action?: ReactNode }) {
  return (
    <Box
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        gap: 1,
        p: 4,
        color: 'text.secondary',
      }}
    >
      <MdiIcon path={icon} sx={{ fontSize: 56, opacity: 0.5 }} />
      <Typography variant="subtitle1" sx={{ color: 'text.primary', fontWeight: 600 }}>
        {title}
      </Typography>
      {description && <Typography variant="body2">{description}</Typography>}
      {action}
    </Box>
  );
}

const errorKey = (error: unknown) => (error instanceof ApiError ? error.messageKey : null);

/** The storage browser: breadcrumbs, toolbar, list or grid, selection, context menu, keyboard and dialogs. */
export function FileExplorer({ path, onNavigate, onOpenFile, onDownload, renderUpload, extraActions }: FileExplorerProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const auth = useAuth();
  const isAdmin = (auth?.user.roleLevel ?? 0) > 1;
  const viewMode = useViewMode();
  const [sort, setSort] = useState<ListSort>('name');
  const listing = useFolderListing(path, sort);
  const permission = usePermission(path);
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  // Where the item menu is open, and (when not where the focus was) what takes the focus back when it closes.
  const [menu, setMenu] = useState<{ x: number; y: number; returnFocus?: () => HTMLElement | null } | null>(null);
  const explorer = useRef<HTMLDivElement>(null);
  const [dialog, setDialog] = useState<null | 'create' | 'trash' | 'move' | 'copy'>(null);
  const [renaming, setRenaming] = useState<FileEntry | null>(null);
  const trash = useTrashItems();
  const move = useMoveItems();
  const copy = useCopyItems();
  const star = useStarItem();

  useEffect(() => {
    setSelection(EMPTY_SELECTION);
    document.title = `${path === '/' ? t('nav_storage') : path.slice(path.lastIndexOf('/') + 1)} · ${t('app_title')}`;
  }, [path, t]);

  const selectedEntries = useCallback(() => listing.loaded().filter((entry) => selection.paths.has(entry.path)), [listing, selection.paths]);
  // At the top the entries are root folders: what they allow is read on the first selected one.
  const rootPermission = usePermission(path === '/' ? ([...selection.paths][0] ?? null) : null);
  const permissions = path === '/' ? rootPermission.data : permission.data;
  const canCreate = path === '/' ? isAdmin : (permission.data ?? []).includes('CREATE');

  const open = useCallback(
    (entry: FileEntry) => {
      if (entry.folder) onNavigate(entry.path);
      else onOpenFile(entry);
    },
    [onNavigate, onOpenFile],
  );

  const runAction = (action: ItemAction, items = selectedEntries()) => {
    if (items.length === 0) return;
    switch (action) {
      case 'open':
        if (items[0]) open(items[0]);
        break;
      case 'download':
        onDownload(items);
        break;
      case 'rename':
        setRenaming(items[0] ?? null);
        break;
      case 'move':
      case 'copy':
      case 'trash':
        setDialog(action);
        break;
      case 'star': {
        const starred = !items.every((item) => item.starred);
        star.mutate(
          items.map((item) => ({ path: item.path, starred })),
          {
            onSuccess: () => notify(starred ? t('star_complete_message') : t('unstar_complete_message'), 'success'),
            onError: (error) => notify(messageText(t, errorKey(error)), 'error'),
          },
        );
        break;
      }
    }
  };

  // A long-press selects the item (keeping a selection it is part of) and opens its menu.
  const longPress = useLongPress<{ index: number; entry: FileEntry }>((point, { index, entry }) => {
    setSelection((current) => (current.paths.has(entry.path) ? current : { paths: new Set([entry.path]), anchor: index }));
    setMenu(point);
  });

  const onItemClick = (event: MouseEvent, index: number, entry: FileEntry) => {
    if (longPress.takeFired()) return;
    // On a touch screen a tap opens, as in phone file apps; once something is selected, taps add and remove.
    const touch = 'pointerType' in event.nativeEvent && event.nativeEvent.pointerType === 'touch';
    if (touch && selection.paths.size === 0) {
      open(entry);
      return;
    }
    setSelection((current) =>
      clickSelection(current, index, entry.path, { toggle: event.ctrlKey || event.metaKey || touch, range: event.shiftKey }, (i) => listing.itemAt(i)?.path),
    );
  };

  const openMenu = (index: number, entry: FileEntry, point: { x: number; y: number }) => {
    if (!selection.paths.has(entry.path)) setSelection({ paths: new Set([entry.path]), anchor: index });
    setMenu(point);
  };
  const onItemContextMenu = (event: MouseEvent, index: number, entry: FileEntry) => {
    event.preventDefault();
    openMenu(index, entry, { x: event.clientX, y: event.clientY });
  };
  // Shift+F10 and the Menu key open the focused item's menu below it (the menu takes the focus, and gives it back on closing).
  const onItemKeyDown = (event: KeyboardEvent<HTMLElement>, index: number, entry: FileEntry) => {
    if ((event.key !== 'ContextMenu' && !(event.key === 'F10' && event.shiftKey)) || event.ctrlKey || event.altKey || event.metaKey) return;
    event.preventDefault();
    const box = event.currentTarget.getBoundingClientRect();
    openMenu(index, entry, { x: box.left, y: box.bottom });
  };

  const onItemDragStart = (event: DragEvent, entry: FileEntry) => {
    const items = selection.paths.has(entry.path) ? selectedEntries() : [entry];
    if (!selection.paths.has(entry.path)) setSelection({ paths: new Set([entry.path]), anchor: null });
    startItemDrag(
      event.dataTransfer,
      items.map(({ name, path: itemPath, folder }) => ({ name, path: itemPath, folder })),
    );
  };

  // A folder of the list takes items dragged onto it (from the list or the tree), as the tree's folders do.
  const dropMove = useDropMove();
  const itemDrop = (entry: FileEntry): ItemDropHandlers =>
    entry.folder
      ? {
          onDragOver: (event) => {
            if (!isItemDrag(event.dataTransfer)) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = 'move';
          },
          onDrop: (event) => {
            if (!isItemDrag(event.dataTransfer)) return;
            event.preventDefault();
            event.stopPropagation();
            dropMove.onDropItems(entry.path, droppedItems(event.dataTransfer));
          },
        }
      : {};

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target instanceof HTMLInputElement || dialog || renaming || menu) return;
    const items = selectedEntries();
    const allowed = new Set(allowedActions(items, permissions ?? []));
    if (event.key === 'Enter' && items.length === 1 && allowed.has('open')) {
      event.preventDefault();
      runAction('open', items);
    } else if (event.key === 'Delete' && items.length > 0 && allowed.has('trash')) {
      event.preventDefault();
      setDialog('trash');
    } else if (event.key === 'F2' && items.length === 1 && allowed.has('rename')) {
      event.preventDefault();
      runAction('rename', items);
    } else if (event.key === 'Escape') {
      setSelection(EMPTY_SELECTION);
    } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      setSelection({ paths: new Set(listing.loaded().map((entry) => entry.path)), anchor: 0 });
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const anchor = selection.anchor ?? -1;
      const next = Math.max(0, Math.min(listing.total - 1, anchor + (event.key === 'ArrowDown' ? 1 : -1)));
      const entry = listing.itemAt(next);
      if (entry) setSelection({ paths: new Set([entry.path]), anchor: next });
      // The focus follows, so the menu keys act on that item (its row exists: the views draw rows beyond the visible ones).
      explorer.current?.querySelector<HTMLElement>(`[data-entry-index="${next}"]`)?.focus();
    }
  };

  const pending = dialog === 'trash' || dialog === 'move' || dialog === 'copy' ? selectedEntries() : [];
  const transfer = (kind: 'move' | 'copy', target: string) => {
    const mutation = kind === 'move' ? move : copy;
    const items = pending;
    setDialog(null);
    mutation.mutate(
      { items, newPath: target },
      {
        onSuccess: () => {
          notify(kind === 'move' ? t('move_items_complete_message') : t('copy_items_complete_message'), 'success');
          setSelection(EMPTY_SELECTION);
        },
        onError: (error) => notify(messageText(t, errorKey(error)), 'error'),
      },
    );
  };

  const error = listing.error;
  const body = useMemo(() => {
    if (error) {
      const key = errorKey(error);
      return (
        <EmptyState icon={mdiAlertCircleOutline} title={messageText(t, key)} action={<Button onClick={() => onNavigate('/')}>{t('go_storage_top')}</Button>} />
      );
    }
    if (!listing.loading && listing.total === 0) {
      if (path === '/') {
        return (
          <EmptyState
            icon={mdiFolderPlusOutline}
            title={t('storage_no_root_folders')}
            description={isAdmin ? t('storage_no_root_folders_admin') : t('storage_no_root_folders_user')}
            action={
              isAdmin ? (
                <Button variant="contained" sx={{ mt: 1 }} onClick={() => setDialog('create')}>
                  {t('create_root_folder')}
                </Button>
              ) : undefined
            }
          />
        );
      }
      return <EmptyState icon={mdiFolderOpenOutline} title={t('folder_empty')} description={canCreate ? t('folder_empty_hint') : undefined} />;
    }
    return null;
  }, [error, listing.loading, listing.total, path, isAdmin, canCreate, onNavigate, t]);

  const viewProps = {
    listing,
    selected: selection.paths,
    sort,
    onSort: setSort,
    onItemClick,
    onItemOpen: open,
    onItemContextMenu,
    onItemKeyDown,
    onItemDragStart,
    itemDrop,
    itemPress: longPress.handlers,
    locale,
  };

  return (
    // The selection bar floats over the bottom of this box, centred on the list, not the window.
    <Box
      sx={{ position: 'relative', display: 'flex', flexDirection: 'column', height: { xs: 'calc(100vh - 96px)', sm: 'calc(100vh - 112px)' }, minHeight: 360 }}
    >
      <ExplorerBreadcrumbs path={path} onNavigate={onNavigate} />
      <ExplorerToolbar
        sort={sort}
        onSort={setSort}
        canCreateFolder={canCreate}
        createFolderLabel={path === '/' ? t('create_root_folder') : t('create_folder')}
        onCreateFolder={() => setDialog('create')}
        onRefresh={() => void refreshFiles(queryClient)}
        // No upload into the top level, nor into a folder that could not be listed (missing, no access).
        uploadButton={path === '/' || error ? undefined : renderUpload?.(canCreate || isAdmin)}
        selectedCount={selection.paths.size}
        total={listing.total}
        folderPath={path}
      />
      {selection.paths.size > 0 && (
        <Suspense fallback={null}>
          <SelectionActionBar
            items={selectedEntries()}
            permissions={permissions}
            extraActions={extraActions ?? []}
            onAction={(action) => runAction(action)}
            onMore={(point, returnFocus) => setMenu({ ...point, returnFocus })}
            onClear={() => setSelection(EMPTY_SELECTION)}
          />
        </Suspense>
      )}
      <Paper
        ref={explorer}
        variant="outlined"
        tabIndex={0}
        onKeyDown={onKeyDown}
        onClick={(event) => {
          if (event.target === event.currentTarget) setSelection(EMPTY_SELECTION);
        }}
        aria-label={t('file_list')}
        data-testid="file-explorer"
        sx={{ flexGrow: 1, minHeight: 0, overflow: 'hidden', borderRadius: 2, outline: 'none', '&:focus-visible': { borderColor: 'primary.main' } }}
      >
        {body ??
          (viewMode === 'grid' ? (
            <Suspense fallback={null}>
              <GridView {...viewProps} />
            </Suspense>
          ) : (
            <ListView {...viewProps} />
          ))}
      </Paper>

      <Deferred open={menu !== null}>
        <ItemContextMenu
          position={menu}
          returnFocus={menu?.returnFocus}
          items={menu ? selectedEntries() : []}
          permissions={permissions}
          onAction={(action) => runAction(action)}
          onClose={() => setMenu(null)}
          extraActions={extraActions}
        />
      </Deferred>
      {dropMove.dialog}
      <Deferred open={dialog === 'create'}>
        <CreateFolderDialog open={dialog === 'create'} parentPath={path} onClose={() => setDialog(null)} />
      </Deferred>
      <Deferred open={renaming !== null}>
        <RenameDialog entry={renaming} onClose={() => setRenaming(null)} />
      </Deferred>
      <ConfirmDialog
        open={dialog === 'trash'}
        danger
        title={t('trash')}
        message={t('confirm_trash_message', { count: pending.length })}
        confirmLabel={t('trash')}
        busy={trash.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() => {
          const paths = pending.map((entry) => entry.path);
          setDialog(null);
          trash.mutate(paths, {
            onSuccess: () => {
              notify(t('trash_complete_message'), 'success');
              setSelection(EMPTY_SELECTION);
            },
            onError: (failure) => notify(messageText(t, errorKey(failure)), 'error'),
          });
        }}
      />
      <Deferred open={dialog === 'move' || dialog === 'copy'}>
        <FolderPickerDialog
          open={dialog === 'move' || dialog === 'copy'}
          title={dialog === 'copy' ? t('copy_to') : t('move_to')}
          confirmLabel={dialog === 'copy' ? t('copy') : t('move')}
          initialPath={path === '/' ? null : path}
          isDisabled={(target) => pending.some((item) => (item.folder && isWithin(target, item.path)) || (dialog === 'move' && parentOf(item.path) === target))}
          onConfirm={(target) => transfer(dialog === 'copy' ? 'copy' : 'move', target)}
          onClose={() => setDialog(null)}
        />
      </Deferred>
    </Box>
  );
}
