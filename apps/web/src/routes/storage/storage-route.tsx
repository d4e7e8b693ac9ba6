import { mdiFolderOutline } from '@mdi/js';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { PageEmptyState } from '../../components/page-empty-state';
import { useLocalePath } from '../../i18n/use-locale';
import { folderSegments } from './folder-path';

/** /storage/{path...}: the file browser; the URL below /storage is the folder path. */
export function StorageRoute() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const segments = folderSegments(useParams()['*'] ?? '');

  return (
    <PageEmptyState title={t('nav_storage')} description={t('storage_description')} icon={mdiFolderOutline}>
      <Breadcrumbs aria-label={t('folder_path')} sx={{ mt: 1 }}>
        {segments.length === 0 ? (
          <Typography sx={{ color: 'text.primary' }}>{t('nav_storage')}</Typography>
        ) : (
          <Link component={RouterLink} to={localePath('/storage')} underline="hover" color="inherit">
            {t('nav_storage')}
          </Link>
        )}
        {segments.map((segment, index) =>
          index === segments.length - 1 ? (
            <Typography key={segment.href} sx={{ color: 'text.primary' }}>
              {segment.name}
            </Typography>
          ) : (
            <Link key={segment.href} component={RouterLink} to={localePath(segment.href)} underline="hover" color="inherit">
              {segment.name}
            </Link>
          ),
        )}
      </Breadcrumbs>
    </PageEmptyState>
  );
}
