import { mdiChevronDown, mdiFolderOutline, mdiLockOutline } from '@mdi/js';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { messageText } from '../../../i18n/keys';
import { useRoots } from '../api/get-roots';
import { ResourcePermissionEditor } from './resource-permission-editor';

/** Settings → Folder permissions: one expandable panel per root folder (a lock when it has an owner). */
export function FolderPermissionsSection() {
  const { t } = useTranslation();
  const roots = useRoots();
  const [open, setOpen] = useState<string | null>(null);

  if (roots.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  if (roots.isError) return <Alert severity="error">{messageText(t, roots.error instanceof ApiError ? roots.error.messageKey : null)}</Alert>;
  if (roots.data.length === 0) {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary', py: 6, textAlign: 'center' }}>
        {t('storage_no_root_folders')}
      </Typography>
    );
  }

  return (
    <Box>
      {roots.data.map((root) => (
        <Accordion
          key={root.inode}
          disableGutters
          expanded={open === root.path}
          onChange={(_event, expanded) => setOpen(expanded ? root.path : null)}
          slotProps={{ transition: { unmountOnExit: true } }}
          data-root-path={root.path}
        >
          <AccordionSummary expandIcon={<MdiIcon path={mdiChevronDown} />}>
            <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center' }}>
              <MdiIcon path={mdiFolderOutline} sx={{ color: 'warning.main' }} />
              <Typography sx={{ fontWeight: 600 }}>{root.name}</Typography>
              {root.owner && (
                <Tooltip title={t('folder_has_owner')}>
                  <Box component="span" sx={{ display: 'inline-flex' }} aria-label={t('folder_has_owner')} role="img">
                    <MdiIcon path={mdiLockOutline} fontSize="small" sx={{ color: 'text.secondary' }} />
                  </Box>
                </Tooltip>
              )}
              {root.description && (
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {root.description}
                </Typography>
              )}
            </Stack>
          </AccordionSummary>
          <AccordionDetails>
            <ResourcePermissionEditor path={root.path} ownerId={root.owner} />
          </AccordionDetails>
        </Accordion>
      ))}
    </Box>
  );
}
