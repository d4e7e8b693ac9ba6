import { mdiUpload } from '@mdi/js';
import Button from '@mui/material/Button';
import { lazy, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Deferred } from '../../../components/deferred';
import { MdiIcon } from '../../../components/mdi-icon';
import { filesFromInput } from '../lib/read-drop';
import { startUpload } from '../upload-service';

// The menu's code (MUI's Menu) loads when it is first opened.
const UploadMenu = lazy(() => import('./upload-menu').then((m) => ({ default: m.UploadMenu })));

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
      <Deferred open={anchor !== null}>
        <UploadMenu anchor={anchor} onClose={() => setAnchor(null)} onPick={(what) => (what === 'files' ? files : folder).current?.click()} />
      </Deferred>
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
