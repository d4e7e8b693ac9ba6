import { mdiFolderUploadOutline, mdiUpload } from '@mdi/js';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { filesFromInput } from '../lib/read-drop';
import { startUpload } from '../upload-service';

/** The upload button of the storage browser: files, or a whole folder. */
export function UploadButton({ targetPath, disabled }: { targetPath: string; disabled?: boolean }) {
  const { t } = useTranslation();
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  const onPicked = (input: HTMLInputElement) => {
    const picked = filesFromInput(input.files);
    input.value = '';
    void startUpload(targetPath, picked);
  };

  return (
    <>
      <Button variant="contained" disabled={disabled} startIcon={<MdiIcon path={mdiUpload} />} onClick={(event) => setAnchor(event.currentTarget)}>
        {t('upload')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            files.current?.click();
          }}
        >
          <ListItemIcon>
            <MdiIcon path={mdiUpload} fontSize="small" />
          </ListItemIcon>
          {t('upload_files')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            folder.current?.click();
          }}
        >
          <ListItemIcon>
            <MdiIcon path={mdiFolderUploadOutline} fontSize="small" />
          </ListItemIcon>
          {t('upload_folder')}
        </MenuItem>
      </Menu>
      <input ref={files} type="file" multiple hidden data-testid="upload-input" onChange={(event) => onPicked(event.currentTarget)} />
      <input
        ref={folder}
        type="file"
        hidden
        data-testid="upload-folder-input"
        {...({ webkitdirectory: '' } as Record<string, string>)}
        onChange={(event) => onPicked(event.currentTarget)}
      />
    </>
  );
}
