import { mdiDownload } from '@mdi/js';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useExportEvents, type AuditExportFormat } from '../api/export-events';
import type { AuditFilterQuery } from '../lib/audit-filter';

/** Export of the filtered rows (all of them, not only the loaded pages) as CSV or JSON lines. */
export function ExportButtons({ filter }: { filter: AuditFilterQuery }) {
  const { t } = useTranslation();
  const lang = useLocale();
  const exporter = useExportEvents();
  const run = (format: AuditExportFormat) =>
    exporter.mutate(
      { filter, format, lang },
      { onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error') },
    );
  return (
    <>
      <Button size="small" variant="outlined" startIcon={<MdiIcon path={mdiDownload} fontSize="small" />} disabled={exporter.isPending} onClick={() => run('csv')}>
        {t('audit_export_csv')}
      </Button>
      <Button size="small" variant="outlined" startIcon={<MdiIcon path={mdiDownload} fontSize="small" />} disabled={exporter.isPending} onClick={() => run('jsonl')}>
        {t('audit_export_jsonl')}
      </Button>
    </>
  );
}
