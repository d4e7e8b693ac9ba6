import { mdiClose, mdiDownload } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useCallback, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { messageText } from '../../../i18n/keys';
import { PREVIEW_LIMITS, previewKind, type PreviewKind } from './preview-kind';
import { ImageViewer } from './viewers/image-viewer';
import { Spinner } from '../../../components/spinner';
import { TextViewer } from './viewers/text-viewer';
import { VideoViewer } from './viewers/video-viewer';
import type { ViewerProps } from './viewers/viewer-props';

// pdf.js, hwp.js and exceljs are large: each loads in its own chunk when first needed.
const VIEWERS: Record<PreviewKind, ComponentType<ViewerProps>> = {
  image: ImageViewer,
  video: VideoViewer,
  text: TextViewer,
  pdf: lazy(() => import('./viewers/pdf-viewer')),
  hwp: lazy(() => import('./viewers/hwp-viewer')),
  xlsx: lazy(() => import('./viewers/xlsx-viewer')),
};

export interface PreviewFile {
  path: string;
  name: string;
  size: number;
  /** The node's id, when known: its history then follows it across renames and moves. */
  nodeId?: string;
}

export interface PreviewOverlayProps {
  file: PreviewFile | null;
  onClose: () => void;
  onDownload: (file: PreviewFile) => void;
  /** More buttons for the file in the top bar, before Download (its history, its versions). */
  fileButtons?: (file: PreviewFile) => ReactNode;
}

/** The file preview overlay: image, video, PDF, HWP, XLSX, or the start of the file as text. */
export function PreviewOverlay({ file, onClose, onDownload, fileButtons }: PreviewOverlayProps) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => setFailure(null), [file?.path]);
  const onError = useCallback(
    (error: unknown) => {
      setFailure(error instanceof ApiError ? messageText(t, error.messageKey) : t('preview_failed'));
    },
    [t],
  );

  const kind = file ? previewKind(file.name) : 'text';
  const tooLarge = file !== null && file.size > PREVIEW_LIMITS[kind];
  const Viewer = VIEWERS[kind];

  return (
    <Dialog
      open={file !== null}
      onClose={onClose}
      fullScreen
      aria-labelledby="preview-title"
      slotProps={{ paper: { sx: { bgcolor: 'rgba(18, 18, 18, 0.96)', backgroundImage: 'none', color: 'grey.100' } } }}
    >
      {file && (
        <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }} data-testid="preview-overlay" data-kind={kind}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1, flexShrink: 0, borderBottom: '1px solid rgba(255,255,255,0.12)' }}>
            <Typography id="preview-title" variant="subtitle1" noWrap sx={{ flexGrow: 1, fontWeight: 500 }}>
              {file.name}
            </Typography>
            {fileButtons?.(file)}
            <Tooltip title={t('download')}>
              <IconButton aria-label={t('download')} onClick={() => onDownload(file)} sx={{ color: 'inherit' }}>
                <MdiIcon path={mdiDownload} />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('close')}>
              <IconButton aria-label={t('close')} onClick={onClose} sx={{ color: 'inherit' }}>
                <MdiIcon path={mdiClose} />
              </IconButton>
            </Tooltip>
          </Box>
          <Box sx={{ flexGrow: 1, minHeight: 0 }}>
            {failure || tooLarge ? (
              <Box sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2, p: 3 }}>
                <Alert severity={failure ? 'error' : 'info'} variant="filled">
                  {failure ?? t('preview_too_large')}
                </Alert>
                <Button variant="contained" startIcon={<MdiIcon path={mdiDownload} />} onClick={() => onDownload(file)}>
                  {t('download')}
                </Button>
              </Box>
            ) : (
              <Suspense fallback={<Spinner />}>
                <Viewer key={file.path} path={file.path} name={file.name} size={file.size} onError={onError} />
              </Suspense>
            )}
          </Box>
        </Box>
      )}
    </Dialog>
  );
}
