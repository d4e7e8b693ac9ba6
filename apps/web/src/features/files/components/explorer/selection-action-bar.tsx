import type { FileEntry, PermissionType } from '@bogwan/contracts';
import { mdiClose, mdiDotsVertical } from '@mdi/js';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useRef, type MouseEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../../components/mdi-icon';
import type { ExtraItemAction } from '../../../../lib/item-actions';
import { ITEM_ACTIONS, allowedActions, type ItemAction } from '../context-menu/item-actions';
import { LazyTooltip } from '../../../../components/lazy-tooltip';

// What the bar offers directly, in this order; everything else stays in the "more" menu.
const BAR_ACTIONS: ReadonlyArray<ItemAction | 'share'> = ['download', 'share', 'move', 'copy', 'rename', 'trash'];
const SHARE_ACTION_ID = 'share';

export interface SelectionActionBarProps {
  items: FileEntry[];
  permissions: readonly PermissionType[] | undefined;
  extraActions: ExtraItemAction[];
  onAction: (action: ItemAction) => void;
  /** Opens the full item menu under the given point; `returnFocus` is the button that opened it, once the menu closes. */
  onMore: (point: { x: number; y: number }, returnFocus: () => HTMLElement | null) => void;
  onClear: () => void;
}

function BarButton({
  label,
  icon,
  onClick,
  buttonRef,
}: {
  label: string;
  icon: string;
  onClick: (event: MouseEvent<HTMLButtonElement>) => void;
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  return (
    <LazyTooltip title={label}>
      <IconButton ref={buttonRef} size="small" aria-label={label} onClick={onClick} sx={{ p: 1 }}>
        <MdiIcon path={icon} />
      </IconButton>
    </LazyTooltip>
  );
}

/**
 * Shown while items are selected: download, share, move, copy, rename and delete as buttons,
 * so neither a phone nor a mouse needs a right-click. It runs the item menu's own actions.
 */
export function SelectionActionBar({ items, permissions, extraActions, onAction, onMore, onClear }: SelectionActionBarProps) {
  const { t, i18n } = useTranslation();
  const allowed = new Set(allowedActions(items, permissions ?? []));
  // The "more" button's current element: the tooltip's code arriving while its menu is open
  // replaces the button, and the menu's own focus return would then land on the page body.
  const moreButton = useRef<HTMLButtonElement>(null);
  const share = permissions ? extraActions.find((extra) => extra.id === SHARE_ACTION_ID && extra.visible(items, permissions)) : undefined;

  return (
    <Paper
      role="toolbar"
      aria-label={t('selection_actions')}
      elevation={6}
      data-testid="selection-action-bar"
      // Floats over the bottom of the explorer: a bar that pushed the list down would move the
      // row under the pointer between the two clicks of a double-click. Placed in the explorer
      // (not the window), it stays clear of the side navigation at 768 and 1024 px.
      sx={{
        position: 'absolute',
        bottom: 16,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: (theme) => theme.zIndex.appBar + 1,
        // A phone keeps the window's width (the list's own is 32 px narrower, hiding buttons).
        width: { xs: 'calc(100vw - 32px)', sm: 'min(640px, calc(100% - 32px))' },
        display: 'flex',
        alignItems: 'center',
        gap: 0.5,
        px: 0.5,
        py: 0.5,
        borderRadius: 2,
        bgcolor: 'background.paper',
        minWidth: 0,
      }}
    >
      <BarButton label={t('selection_clear')} icon={mdiClose} onClick={onClear} />
      <Typography variant="body2" sx={{ fontWeight: 600, mr: 'auto', whiteSpace: 'nowrap', flexShrink: 0 }}>
        {t('selected_count', { n: items.length.toLocaleString(i18n.language) })}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'nowrap', overflowX: 'auto', minWidth: 0 }}>
        {BAR_ACTIONS.map((action) => {
          if (action === SHARE_ACTION_ID) {
            return share ? <BarButton key={action} label={share.label} icon={share.icon} onClick={() => share.run(items)} /> : null;
          }
          const spec = ITEM_ACTIONS.find((candidate) => candidate.action === action);
          return spec && allowed.has(action) ? <BarButton key={action} label={t(spec.label)} icon={spec.icon} onClick={() => onAction(action)} /> : null;
        })}
        <BarButton
          label={t('item_actions')}
          icon={mdiDotsVertical}
          buttonRef={moreButton}
          onClick={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            onMore({ x: box.left, y: box.bottom }, () => moreButton.current);
          }}
        />
      </Box>
    </Paper>
  );
}
