import { mdiBackupRestore } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** /snapshot (administrators): backups and their schedules. */
export function SnapshotRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_snapshot')} description={t('snapshot_description')} icon={mdiBackupRestore} />;
}
