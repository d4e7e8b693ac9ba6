import type { Licence } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { messageText } from '../../../i18n/keys';
import { useAuth } from '../../../state/auth';
import { useLicence } from '../api/get-licence';
import { LicenceKeyForm } from './licence-key-form';

/** An ISO date or time as YYYY-MM-DD, the dialogs' date format. */
function day(iso: string | null): string {
  return iso ? iso.slice(0, 10) : '-';
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-all' }}>
        {children}
      </Typography>
    </>
  );
}

function LicenceFields({ licence }: { licence: Licence }) {
  const { t } = useTranslation();
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'minmax(8rem, max-content) 1fr', columnGap: 3, rowGap: 1.25, m: 0 }}>
      <Field label={t('license_organization')}>{licence.org || '-'}</Field>
      <Field label={t('license_support_number')}>{licence.sen || '-'}</Field>
      <Field label={t('license_server_id')}>
        <Box component="span" sx={{ fontFamily: 'monospace' }}>
          {licence.serverId}
        </Box>
      </Field>
      <Field label={t('license_type')}>{licence.trial ? <Chip size="small" color="warning" label={t('license_trial')} /> : licence.type}</Field>
      <Field label={t('license_user')}>{t('license_seats', { used: licence.seatsUsed, total: licence.user })}</Field>
      <Field label={t('license_purchase_date')}>{day(licence.purchase)}</Field>
      <Field label={t('license_maintenance_expiry')}>{day(licence.maintenance)}</Field>
      {licence.trial && <Field label={t('license_trial_ends')}>{day(licence.expiresAt)}</Field>}
    </Box>
  );
}

/** Settings → System → Licence: the licence fields and a key to replace it (administrators). */
export function LicencePanel() {
  const { t } = useTranslation();
  const auth = useAuth();
  const isAdmin = (auth?.user.roleLevel ?? 0) >= 2;
  const licence = useLicence(isAdmin);

  if (!isAdmin) return <Alert severity="warning">{t('no_access_warning')}</Alert>;

  let body: ReactNode;
  if (licence.isPending) {
    body = (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  } else if (licence.isError) {
    const key = licence.error instanceof ApiError ? licence.error.messageKey : null;
    body = (
      <Alert severity={key === 'license_required' ? 'warning' : 'error'}>
        {key === 'license_required' ? t('invalid_license_message1') : messageText(t, key)}
      </Alert>
    );
  } else {
    body = <LicenceFields licence={licence.data} />;
  }

  return (
    <Stack spacing={2.5} sx={{ maxWidth: 720 }}>
      {body}
      <Divider />
      <LicenceKeyForm />
    </Stack>
  );
}
