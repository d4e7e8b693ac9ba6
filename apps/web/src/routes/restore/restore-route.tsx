import { mdiRestore } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** /restore (administrators): restoring from snapshots. */
export function RestoreRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_restore')} description={t('restore_description')} icon={mdiRestore} />;
}
