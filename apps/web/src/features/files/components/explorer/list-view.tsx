import { mdiArrowDown, mdiArrowUp, mdiStar } from '@mdi/js';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../../components/mdi-icon';
import { formatDateTime } from '../../../../i18n/format-time';
import type { ListSort } from '../../api/list-files';
import { useFixedRows } from '../../hooks/use-fixed-rows';
import { formatBytes } from '../../../../lib/format-bytes';
import { FileIcon } from '../../../../components/file-icon';
import type { ViewProps } from './view-props';

const ROW_HEIGHT = 44;
const COLUMNS = 'minmax(0, 1fr) 110px 190px';
// Below this width the size and date columns would squeeze the name to nothing: each row
// becomes two lines instead (name, then size · date), as phone file apps show them.
const COMPACT_BELOW_PX = 600;
const COMPACT_ROW_HEIGHT = 60;

// Row styles as constants, and each row's offset in `style`: an offset in `sx` made a new
// CSS class for every position scrolled past (thousands in a large folder), and the styles
// were serialised again for every row on every frame of a scroll.
const ROW_SX = {
  position: 'absolute',
  top: 0,
  left: 0,
  right: 0,
  height: ROW_HEIGHT,
  display: 'grid',
  gridTemplateColumns: COLUMNS,
  alignItems: 'center',
  gap: 2,
  px: 2,
  cursor: 'default',
  userSelect: 'none',
  borderBottom: 1,
  borderColor: 'divider',
  bgcolor: 'transparent',
  '&:hover': { bgcolor: 'action.hover' },
  '&:focus-visible': { outline: 2, outlineStyle: 'solid', outlineColor: 'primary.main', outlineOffset: -2 },
} as const;
const SELECTED_ROW_SX = { ...ROW_SX, bgcolor: 'action.selected', '&:hover': { bgcolor: 'action.selected' } } as const;
const COMPACT_ROW_SX = { ...ROW_SX, height: COMPACT_ROW_HEIGHT, gridTemplateColumns: 'minmax(0, 1fr)', WebkitTouchCallout: 'none' } as const;
const COMPACT_SELECTED_ROW_SX = { ...SELECTED_ROW_SX, height: COMPACT_ROW_HEIGHT, gridTemplateColumns: 'minmax(0, 1fr)', WebkitTouchCallout: 'none' } as const;
const NAME_LINES_SX = { display: 'flex', flexDirection: 'column', minWidth: 0 } as const;
const DETAIL_LINE_SX = { color: 'text.secondary' } as const;
const NAME_CELL_SX = { display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0 } as const;
const STAR_SX = { fontSize: 16, flexShrink: 0 } as const;
const SIZE_CELL_SX = { textAlign: 'right', color: 'text.secondary' } as const;
const DATE_CELL_SX = { color: 'text.secondary' } as const;

function SortHeader({
  label,
  field,
  sort,
  onSort,
  align,
}: {
  label: string;
  field: 'name' | 'size' | 'mtime';
  sort: ListSort;
  onSort: (s: ListSort) => void;
  align?: 'right';
}) {
  const active = sort.replace('-', '') === field;
  const descending = sort.startsWith('-');
  return (
    <Box role="columnheader" aria-sort={active ? (descending ? 'descending' : 'ascending') : 'none'} sx={{ textAlign: align ?? 'left' }}>
      <ButtonBase
        onClick={() => onSort((active && !descending ? `-${field}` : field) as ListSort)}
        sx={{
          gap: 0.5,
          px: 0.5,
          py: 0.5,
          borderRadius: 1,
          fontSize: 13,
          fontWeight: 600,
          whiteSpace: 'nowrap',
          color: active ? 'text.primary' : 'text.secondary',
        }}
      >
        {label}
        {active && <MdiIcon path={descending ? mdiArrowDown : mdiArrowUp} sx={{ fontSize: 16 }} />}
      </ButtonBase>
    </Box>
  );
}

/** The list view: one row per entry with size and date; only rows on screen exist in the page. */
export function ListView({
  listing,
  selected,
  sort,
  onSort,
  onItemClick,
  onItemOpen,
  onItemContextMenu,
  onItemKeyDown,
  onItemDragStart,
  itemDrop,
  itemPress,
  locale,
}: ViewProps) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const compact = useIsNarrow(scroller);
  const rowHeight = compact ? COMPACT_ROW_HEIGHT : ROW_HEIGHT;
  const { rows: items, totalSize } = useFixedRows(scroller, listing.total, rowHeight, 12);
  const rowSx = (isSelected: boolean) => (compact ? (isSelected ? COMPACT_SELECTED_ROW_SX : COMPACT_ROW_SX) : isSelected ? SELECTED_ROW_SX : ROW_SX);
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  const { showRange } = listing;
  useEffect(() => showRange(first, last), [first, last, showRange]);
  // Rows are reused for other entries as the list scrolls: the focus stays with its entry's row,
  // or, once that row is out of the page, goes back to the explorer (never to another entry).
  const focused = useRef<number | null>(null);
  useLayoutEffect(() => {
    const active = document.activeElement;
    const list = scroller.current;
    if (focused.current === null || !(active instanceof HTMLElement) || !list?.contains(active) || active.dataset.entryIndex === String(focused.current))
      return;
    (list.querySelector<HTMLElement>(`[data-entry-index="${focused.current}"]`) ?? active.closest<HTMLElement>('[tabindex="0"]'))?.focus({
      preventScroll: true,
    });
  });

  return (
    <Box
      role="grid"
      aria-label={t('file_list')}
      aria-multiselectable
      aria-rowcount={listing.total}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}
    >
      <Box
        role="row"
        sx={{
          display: 'grid',
          gridTemplateColumns: compact ? 'minmax(0, 1fr)' : COLUMNS,
          alignItems: 'center',
          gap: 2,
          px: 2,
          height: 40,
          borderBottom: 1,
          borderColor: 'divider',
          flexShrink: 0,
        }}
      >
        <SortHeader label={t('column_name')} field="name" sort={sort} onSort={onSort} />
        {!compact && <SortHeader label={t('column_size')} field="size" sort={sort} onSort={onSort} align="right" />}
        {!compact && <SortHeader label={t('column_modified')} field="mtime" sort={sort} onSort={onSort} />}
      </Box>
      <Box ref={scroller} sx={{ flexGrow: 1, minHeight: 0, overflowY: 'auto', position: 'relative' }} data-testid="file-list-scroller">
        <Box sx={{ height: totalSize, position: 'relative' }}>
          {items.map((row, slot) => {
            const entry = listing.itemAt(row.index);
            const isSelected = entry ? selected.has(entry.path) : false;
            return (
              <Box
                // Keyed by place on screen, not by entry: scrolling then updates the rows in
                // place instead of creating new ones (measured: fewer dropped frames while a
                // 10,000-entry folder is flicked through; bench/RESULTS.md "Storage browser").
                // Rows keep no state of their own, so nothing follows the wrong entry.
                key={slot}
                role="row"
                aria-rowindex={row.index + 1}
                aria-selected={isSelected}
                data-entry-name={entry?.name}
                data-entry-index={row.index}
                tabIndex={entry ? -1 : undefined}
                draggable={Boolean(entry)}
                onFocus={() => (focused.current = row.index)}
                onClick={(event) => entry && onItemClick(event, row.index, entry)}
                onDoubleClick={() => entry && onItemOpen(entry)}
                onContextMenu={(event) => entry && onItemContextMenu(event, row.index, entry)}
                onKeyDown={(event) => entry && onItemKeyDown(event, row.index, entry)}
                onDragStart={(event) => entry && onItemDragStart(event, entry)}
                {...(entry ? itemDrop(entry) : {})}
                {...(entry ? itemPress({ index: row.index, entry }) : {})}
                sx={rowSx(isSelected)}
                style={{ transform: `translateY(${row.start}px)` }}
              >
                {entry && compact ? (
                  <Box role="gridcell" sx={NAME_CELL_SX}>
                    <FileIcon name={entry.name} folder={entry.folder} lock={entry.lock} />
                    <Box sx={NAME_LINES_SX}>
                      <Typography variant="body2" noWrap title={entry.name}>
                        {entry.name}
                      </Typography>
                      <Typography variant="caption" noWrap sx={DETAIL_LINE_SX}>
                        {[entry.folder ? null : formatBytes(entry.size, locale), formatDateTime(entry.mtime, locale)].filter(Boolean).join(' · ')}
                      </Typography>
                    </Box>
                    {entry.starred && <MdiIcon path={mdiStar} htmlColor="#fbc02d" sx={STAR_SX} aria-label={t('starred')} />}
                  </Box>
                ) : entry ? (
                  <>
                    <Box role="gridcell" sx={NAME_CELL_SX}>
                      <FileIcon name={entry.name} folder={entry.folder} lock={entry.lock} />
                      <Typography variant="body2" noWrap title={entry.name}>
                        {entry.name}
                      </Typography>
                      {entry.starred && <MdiIcon path={mdiStar} htmlColor="#fbc02d" sx={STAR_SX} aria-label={t('starred')} />}
                    </Box>
                    <Typography role="gridcell" variant="body2" sx={SIZE_CELL_SX}>
                      {entry.folder ? '—' : formatBytes(entry.size, locale)}
                    </Typography>
                    <Typography role="gridcell" variant="body2" noWrap sx={DATE_CELL_SX}>
                      {formatDateTime(entry.mtime, locale)}
                    </Typography>
                  </>
                ) : compact ? (
                  <Skeleton variant="text" width="60%" />
                ) : (
                  <>
                    <Skeleton variant="text" width="40%" />
                    <Skeleton variant="text" />
                    <Skeleton variant="text" />
                  </>
                )}
              </Box>
            );
          })}
        </Box>
      </Box>
    </Box>
  );
}

/** Whether the element is narrower than a three-column row needs (it follows the window and the menu). */
function useIsNarrow(element: { current: HTMLElement | null }): boolean {
  const [narrow, setNarrow] = useState(false);
  useLayoutEffect(() => {
    const node = element.current;
    if (!node) return;
    const measure = () => setNarrow(node.clientWidth < COMPACT_BELOW_PX);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [element]);
  return narrow;
}
