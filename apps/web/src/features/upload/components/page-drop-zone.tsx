import { mdiCloudUploadOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { dragHasFiles, readDrop, type DroppedFile } from '../lib/read-drop';
import { startUpload } from '../upload-service';

/** Margin the overlay leaves around it, as the spec's drag-and-drop wrapper does. */
const OVERLAY_INSET = 48;

export interface LocationDialogProps {
  open: boolean;
  fileCount: number;
  onConfirm: (path: string) => void;
  onClose: () => void;
}

export interface PageDropZoneProps {
  /** Folder the files go to; null outside the storage browser (a location dialog asks). */
  targetPath: string | null;
  /** Shown when `targetPath` is null. */
  renderLocationDialog: (props: LocationDialogProps) => ReactNode;
  /** Called after files were queued into `path` from the location dialog. */
  onUploaded?: (path: string) => void;
}

/**
 * Files dragged onto the page: an overlay while the drag is on, an upload on drop.
 * Drops are ignored unless a drag of files is active; items dragged inside the page
 * (rows, tree folders) carry no files and do not count.
 */
export function PageDropZone({ targetPath, renderLocationDialog, onUploaded }: PageDropZoneProps) {
  const { t } = useTranslation();
  const [active, setActive] = useState(false);
  const [pending, setPending] = useState<DroppedFile[] | null>(null);
  const depth = useRef(0);
  const activeRef = useRef(false);
  const target = useRef(targetPath);
  target.current = targetPath;

  useEffect(() => {
    const setDragging = (value: boolean) => {
      activeRef.current = value;
      setActive(value);
      if (!value) depth.current = 0;
    };
    const onEnter = (event: DragEvent) => {
      if (!dragHasFiles(event)) return;
      depth.current += 1;
      setDragging(true);
    };
    const outsideDropArea = (event: DragEvent) => event.target instanceof Element && event.target.closest('[data-no-drop]') !== null;
    const onOver = (event: DragEvent) => {
      if (!activeRef.current) return;
      // A data-table row is not a drop area: without preventDefault the browser refuses the drop there.
      if (outsideDropArea(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = (event: DragEvent) => {
      if (!activeRef.current) return;
      depth.current -= 1;
      if (depth.current <= 0 || event.relatedTarget === null) setDragging(false);
    };
    // Capture phase: every drop ends the drag, also one a tree folder handles itself.
    let armed = false;
    const onDropCapture = () => {
      armed = activeRef.current;
      setDragging(false);
    };
    const onDrop = (event: DragEvent) => {
      const wasActive = armed;
      armed = false;
      if (!wasActive || !event.dataTransfer || outsideDropArea(event)) return;
      event.preventDefault();
      // Entries must be taken before the handler yields.
      const reading = readDrop(event.dataTransfer);
      void reading.then((files) => {
        if (files.length === 0) return;
        if (target.current !== null) void startUpload(target.current, files);
        else setPending(files);
      });
    };
    document.addEventListener('dragenter', onEnter);
    document.addEventListener('dragover', onOver);
    document.addEventListener('dragleave', onLeave);
    document.addEventListener('drop', onDropCapture, true);
    document.addEventListener('drop', onDrop);
    return () => {
      document.removeEventListener('dragenter', onEnter);
      document.removeEventListener('dragover', onOver);
      document.removeEventListener('dragleave', onLeave);
      document.removeEventListener('drop', onDropCapture, true);
      document.removeEventListener('drop', onDrop);
    };
  }, []);

  return (
    <>
      {active && (
        <Box
          data-testid="drop-overlay"
          role="alert"
          sx={{
            position: 'fixed',
            inset: OVERLAY_INSET,
            zIndex: (theme) => theme.zIndex.modal + 1,
            border: 3,
            borderStyle: 'dashed',
            borderColor: 'primary.main',
            borderRadius: 3,
            bgcolor: (theme) => (theme.palette.mode === 'dark' ? 'rgba(25, 118, 210, 0.16)' : 'rgba(30, 136, 229, 0.08)'),
            backdropFilter: 'blur(2px)',
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: 'center',
            gap: 1,
            pointerEvents: 'none',
          }}
        >
          <MdiIcon path={mdiCloudUploadOutline} color="primary" sx={{ fontSize: 64 }} />
          <Typography variant="h6" color="primary">
            {targetPath === null ? t('drop_files_choose_location') : t('drop_files_here', { folder: targetPath })}
          </Typography>
        </Box>
      )}
      {renderLocationDialog({
        open: pending !== null,
        fileCount: pending?.length ?? 0,
        onClose: () => setPending(null),
        onConfirm: (path) => {
          const files = pending ?? [];
          setPending(null);
          void startUpload(path, files).then((queued) => {
            if (queued) onUploaded?.(path);
          });
        },
      })}
    </>
  );
}
