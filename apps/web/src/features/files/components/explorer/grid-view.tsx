import { mdiStar } from '@mdi/js';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../../components/mdi-icon';
import { useFormatBytes } from '../../../../lib/format-bytes';
import { FileIcon } from '../../../../components/file-icon';
import { useFixedRows } from '../../hooks/use-fixed-rows';
import type { ViewProps } from './view-props';

const CARD_WIDTH = 156;
const ROW_HEIGHT = 148;
const GAP = 12;

// Constant styles, and each row's offset and column count in `style` (see the list view:
// per-position values in `sx` made a CSS class for every row position scrolled past).
const ROW_SX = { position: 'absolute', top: 0, left: 0, right: 0, display: 'grid', gap: `${GAP}px`, px: `${GAP}px` } as const;
const CARD_SX = {
  height: ROW_HEIGHT,
  border: 1,
  borderColor: 'divider',
  borderRadius: 2,
  bgcolor: 'background.paper',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 1,
  px: 1.5,
  userSelect: 'none',
  position: 'relative',
  '&:hover': { bgcolor: 'action.hover' },
  '&:focus-visible': { outline: 2, outlineStyle: 'solid', outlineColor: 'primary.main' },
} as const;
const SELECTED_CARD_SX = { ...CARD_SX, borderColor: 'primary.main', bgcolor: 'action.selected', '&:hover': { bgcolor: 'action.selected' } } as const;
const STAR_SX = { position: 'absolute', top: 8, right: 8, fontSize: 16 } as const;
const ICON_SX = { fontSize: 56 } as const;
const NAME_SX = {
  textAlign: 'center',
  width: '100%',
  overflow: 'hidden',
  display: '-webkit-box',
  WebkitLineClamp: 2,
  WebkitBoxOrient: 'vertical',
  wordBreak: 'break-all',
  lineHeight: 1.3,
} as const;
const SIZE_SX = { color: 'text.secondary' } as const;

/** The grid view: cards with a large icon, virtualised by rows of as many cards as fit. */
export function GridView({ listing, selected, onItemClick, onItemOpen, onItemContextMenu, onItemKeyDown, onItemDragStart, itemDrop, itemPress }: ViewProps) {
  const { t } = useTranslation();
  const formatBytes = useFormatBytes();
  const scroller = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useState(4);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => setColumns(Math.max(1, Math.floor((element.clientWidth - GAP) / (CARD_WIDTH + GAP))));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const rowCount = Math.ceil(listing.total / columns);
  const { rows, totalSize } = useFixedRows(scroller, rowCount, ROW_HEIGHT + GAP, 3);
  const first = (rows[0]?.index ?? 0) * columns;
  const last = ((rows.at(-1)?.index ?? 0) + 1) * columns - 1;
  const { showRange } = listing;
  useEffect(() => showRange(first, last), [first, last, showRange]);

  return (
    <Box
      ref={scroller}
      role="grid"
      aria-label={t('file_list')}
      aria-multiselectable
      data-testid="file-list-scroller"
      sx={{ height: '100%', overflowY: 'auto', position: 'relative' }}
    >
      <Box sx={{ height: totalSize, position: 'relative' }}>
        {rows.map((row) => (
          <Box
            key={row.index}
            role="row"
            sx={ROW_SX}
            style={{ transform: `translateY(${row.start + GAP}px)`, gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
          >
            {Array.from({ length: columns }, (_, column) => {
              const index = row.index * columns + column;
              if (index >= listing.total) return <Box key={column} />;
              const entry = listing.itemAt(index);
              const isSelected = entry ? selected.has(entry.path) : false;
              return (
                <Box
                  key={entry?._id ?? column}
                  role="gridcell"
                  aria-selected={isSelected}
                  data-entry-name={entry?.name}
                  data-entry-index={index}
                  tabIndex={entry ? -1 : undefined}
                  draggable={Boolean(entry)}
                  onClick={(event) => entry && onItemClick(event, index, entry)}
                  onDoubleClick={() => entry && onItemOpen(entry)}
                  onContextMenu={(event) => entry && onItemContextMenu(event, index, entry)}
                  onKeyDown={(event) => entry && onItemKeyDown(event, index, entry)}
                  onDragStart={(event) => entry && onItemDragStart(event, entry)}
                  {...(entry ? itemDrop(entry) : {})}
                  {...(entry ? itemPress({ index, entry }) : {})}
                  sx={isSelected ? SELECTED_CARD_SX : CARD_SX}
                >
                  {entry ? (
                    <>
                      {entry.starred && <MdiIcon path={mdiStar} htmlColor="#fbc02d" sx={STAR_SX} aria-label={t('starred')} />}
                      <FileIcon name={entry.name} folder={entry.folder} lock={entry.lock} sx={ICON_SX} />
                      <Typography variant="body2" title={entry.name} sx={NAME_SX}>
                        {entry.name}
                      </Typography>
                      <Typography variant="caption" sx={SIZE_SX}>
                        {entry.folder ? t('folder') : formatBytes(entry.size)}
                      </Typography>
                    </>
                  ) : (
                    <Skeleton variant="rounded" width={56} height={56} />
                  )}
                </Box>
              );
            })}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
