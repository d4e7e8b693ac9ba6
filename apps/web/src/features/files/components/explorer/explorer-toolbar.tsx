import { mdiFolderPlusOutline, mdiRefresh, mdiSortAscending, mdiViewGridOutline, mdiViewListOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { lazy, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Deferred } from '../../../../components/deferred';
import { MdiIcon } from '../../../../components/mdi-icon';
import { ToggleGroup } from '../../../../components/toggle-group';
import { k } from '../../../../i18n/keys';
import { setViewMode, useViewMode } from '../../../../state/ui';
import type { ListSort } from '../../api/list-files';
import { ConnectDriveButton } from './connect-drive-button';
import { LazyTooltip } from '../../../../components/lazy-tooltip';

const SORTS = [
  { value: 'name', label: k('sort_name_asc') },
  { value: '-name', label: k('sort_name_desc') },
  { value: 'size', label: k('sort_size_asc') },
  { value: '-size', label: k('sort_size_desc') },
  { value: '-mtime', label: k('sort_date_desc') },
  { value: 'mtime', label: k('sort_date_asc') },
] as const satisfies ReadonlyArray<{ value: ListSort; label: string }>;

// The sort menu's code (MUI's Menu) loads when it is first opened.
const SortMenu = lazy(() => import('./sort-menu').then((m) => ({ default: m.SortMenu })));

export interface ExplorerToolbarProps {
  sort: ListSort;
  onSort: (sort: ListSort) => void;
  canCreateFolder: boolean;
  createFolderLabel: string;
  onCreateFolder: () => void;
  onRefresh: () => void;
  /** The upload button (from the upload feature). */
  uploadButton?: ReactNode;
  selectedCount: number;
  total: number;
  /** The folder on screen: "connect as a drive" shows its WebDAV address. */
  folderPath?: string;
}

/** New folder, upload, item count, sort, refresh and the list/grid switch. */
export function ExplorerToolbar(props: ExplorerToolbarProps) {
  const { t, i18n } = useTranslation();
  const count = (n: number) => n.toLocaleString(i18n.language);
  const viewMode = useViewMode();
  const [sortAnchor, setSortAnchor] = useState<HTMLElement | null>(null);
  const current = SORTS.find((option) => option.value === props.sort) ?? SORTS[0];

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', py: 1.5 }}>
      {props.uploadButton}
      {props.canCreateFolder && (
        <Button variant="outlined" startIcon={<MdiIcon path={mdiFolderPlusOutline} />} onClick={props.onCreateFolder}>
          {props.createFolderLabel}
        </Button>
      )}
      <Typography variant="body2" sx={{ color: 'text.secondary', ml: 1 }} aria-live="polite">
        {props.selectedCount > 0 ? t('items_selected', { n: count(props.selectedCount), total: count(props.total) }) : t('items_count', { count: props.total })}
      </Typography>
      <Box sx={{ flexGrow: 1 }} />
      <Button
        color="inherit"
        startIcon={<MdiIcon path={mdiSortAscending} />}
        onClick={(event) => setSortAnchor(event.currentTarget)}
        aria-label={`${t(current.label)} (${t('sort')})`}
      >
        {t(current.label)}
      </Button>
      <Deferred open={sortAnchor !== null}>
        <SortMenu anchor={sortAnchor} options={SORTS} value={props.sort} onPick={props.onSort} onClose={() => setSortAnchor(null)} />
      </Deferred>
      {props.folderPath !== undefined && <ConnectDriveButton path={props.folderPath} />}
      <LazyTooltip title={t('refresh')}>
        <IconButton aria-label={t('refresh')} onClick={props.onRefresh}>
          <MdiIcon path={mdiRefresh} />
        </IconButton>
      </LazyTooltip>
      <ToggleGroup
        value={viewMode}
        onChange={setViewMode}
        aria-label={t('view_mode')}
        options={[
          { value: 'list', label: t('view_list'), icon: <MdiIcon path={mdiViewListOutline} fontSize="small" /> },
          { value: 'grid', label: t('view_grid'), icon: <MdiIcon path={mdiViewGridOutline} fontSize="small" /> },
        ]}
      />
    </Box>
  );
}
