import { mdiFolderUploadOutline, mdiUpload } from '@mdi/js';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { k } from '../../../i18n/keys';

const CHOICES = [
  { what: 'files', icon: mdiUpload, label: k('upload_files') },
  { what: 'folder', icon: mdiFolderUploadOutline, label: k('upload_folder') },
] as const;

export interface UploadMenuProps {
  anchor: HTMLElement | null;
  onClose: () => void;
  /** Opens the browser's file picker, or its folder picker. */
  onPick: (what: 'files' | 'folder') => void;
}

/** The upload button's menu: files, or a whole folder (its code loads when it first opens). */
export function UploadMenu({ anchor, onClose, onPick }: UploadMenuProps) {
  const { t } = useTranslation();
  return (
    <Menu anchorEl={anchor} open={anchor !== null} onClose={onClose}>
      {CHOICES.map(({ what, icon, label }) => (
        <MenuItem
          key={what}
          onClick={() => {
            onClose();
            onPick(what);
          }}
        >
          <ListItemIcon>
            <MdiIcon path={icon} fontSize="small" />
          </ListItemIcon>
          {t(label)}
        </MenuItem>
      ))}
    </Menu>
  );
}
