import { mdiDownload } from '@mdi/js';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { k, messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useExportEvents, type AuditExportFormat } from '../api/export-events';
import type { AuditFilterQuery } from '../lib/audit-filter';

const FORMATS: Array<{ format: AuditExportFormat; label: ReturnType<typeof k> }> = [
  { format: 'csv', label: k('audit_export_csv') },
  { format: 'jsonl', label: k('audit_export_jsonl') },
];

/** Export of the filtered rows (all of them, not only the loaded pages) as CSV or JSON lines. */
export function ExportButtons({ filter }: { filter: AuditFilterQuery }) {
  const { t } = useTranslation();
  const lang = useLocale();
  const exporter = useExportEvents();
  // While the server writes the file, the button that asked for it shows it is at work.
  const busy = exporter.isPending ? exporter.variables?.format : undefined;
  const run = (format: AuditExportFormat) =>
    exporter.mutate({ filter, format, lang }, { onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error') });
  return (
    <>
      {FORMATS.map(({ format, label }) => (
        <Button
          key={format}
          size="small"
          variant="outlined"
          startIcon={busy === format ? <CircularProgress size={16} aria-label={t('loading')} /> : <MdiIcon path={mdiDownload} fontSize="small" />}
          disabled={exporter.isPending}
          onClick={() => run(format)}
        >
          {t(label)}
        </Button>
      ))}
    </>
  );
}
