import { useTranslation } from 'react-i18next';
import { FolderPickerDialog } from './folder-picker-dialog';

/** Outside the storage browser, dropped files ask where to go; confirm is disabled with no files. */
export function UploadLocationDialog({
  open,
  fileCount,
  onConfirm,
  onClose,
}: {
  open: boolean;
  fileCount: number;
  onConfirm: (path: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <FolderPickerDialog
      open={open}
      title={t('upload_location_title')}
      message={t('upload_location_message', { count: fileCount })}
      confirmLabel={t('upload')}
      confirmDisabled={fileCount === 0}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
