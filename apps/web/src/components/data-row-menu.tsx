import { mdiCodeJson } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from './mdi-icon';

/** A row action as the menu shows it. */
export interface DataRowMenuAction {
  id: string;
  label: string;
  icon: string;
  danger?: boolean;
}

interface DataRowMenuProps {
  /** Where the menu opens (the pointer, or the row's menu button); null when closed. */
  position: { top: number; left: number } | null;
  /** The actions that apply to the row. */
  actions: DataRowMenuAction[];
  onClose: () => void;
  onAction: (id: string) => void;
  onViewRaw: () => void;
}

/** A data table row's context menu: its actions, then 'view raw'. */
export function DataRowMenu({ position, actions, onClose, onAction, onViewRaw }: DataRowMenuProps) {
  const { t } = useTranslation();
  return (
    <Menu
      open={position !== null}
      onClose={onClose}
      anchorReference="anchorPosition"
      anchorPosition={position ?? undefined}
      slotProps={{ list: { dense: true, 'aria-label': t('row_actions') } }}
    >
      {position &&
        actions.map((action) => (
          <MenuItem key={action.id} onClick={() => onAction(action.id)} sx={action.danger ? { color: 'error.main' } : undefined}>
            <ListItemIcon sx={action.danger ? { color: 'error.main' } : undefined}>
              <MdiIcon path={action.icon} fontSize="small" />
            </ListItemIcon>
            <ListItemText>{action.label}</ListItemText>
          </MenuItem>
        ))}
      {position && (
        <MenuItem onClick={onViewRaw}>
          <ListItemIcon>
            <MdiIcon path={mdiCodeJson} fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('view_raw')}</ListItemText>
        </MenuItem>
      )}
    </Menu>
  );
}

/** A row's data as JSON. */
export function RawDataDialog({ data, onClose }: { data: unknown; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={data !== null} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('view_raw')}</DialogTitle>
      <DialogContent dividers>
        <Box component="pre" sx={{ m: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {data !== null ? JSON.stringify(data, null, 2) : ''}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
