import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ancestorsOf, baseName } from '../../lib/storage-path';

/** Storage › A › B, every ancestor a link. */
export function ExplorerBreadcrumbs({ path, onNavigate }: { path: string; onNavigate: (path: string) => void }) {
  const { t } = useTranslation();
  const trail = ancestorsOf(path);
  const crumb = (label: string, target: string, last: boolean) =>
    last ? (
      <Typography key={target} component="h1" variant="h6" sx={{ color: 'text.primary', fontWeight: 700 }} noWrap>
        {label}
      </Typography>
    ) : (
      <Link
        key={target}
        component="button"
        type="button"
        variant="h6"
        underline="hover"
        color="inherit"
        onClick={() => onNavigate(target)}
        sx={{ fontWeight: 500, verticalAlign: 'baseline' }}
      >
        {label}
      </Link>
    );
  return (
    <Breadcrumbs
      aria-label={t('folder_path')}
      maxItems={6}
      itemsAfterCollapse={3}
      sx={{ minWidth: 0, '& ol': { flexWrap: 'nowrap' }, '& li': { minWidth: 0 } }}
    >
      {crumb(t('nav_storage'), '/', trail.length === 0)}
      {trail.map((target, index) => crumb(baseName(target), target, index === trail.length - 1))}
    </Breadcrumbs>
  );
}
