import type { Profile } from '@bogwan/contracts';
import { mdiAccountGroup, mdiCalendarOutline, mdiEmailOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { ROLE_ICONS, ROLE_LABELS, UserAvatar } from '../../../components/user-avatar';
import { useLocale } from '../../../i18n/use-locale';

function formatDate(iso: string, locale: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : new Intl.DateTimeFormat(locale === 'en' ? 'en-US' : 'ko-KR', { dateStyle: 'long' }).format(date);
}

/** A user's public profile: avatar with role icon, name, email, role, groups and since when. */
export function ProfileCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, borderRadius: 3 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={4} sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }}>
        <UserAvatar name={profile.name} role={profile.role} profileImage={profile.profileImage} size={120} />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
            {profile.name}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary', mt: 0.5 }}>
            <MdiIcon path={mdiEmailOutline} fontSize="small" />
            <Typography variant="body1" sx={{ wordBreak: 'break-all' }}>
              {profile.email}
            </Typography>
          </Stack>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary', mt: 0.5 }}>
            <MdiIcon path={mdiCalendarOutline} fontSize="small" />
            <Typography variant="body2">{t('profile_member_since', { date: formatDate(profile.createdAt, locale) })}</Typography>
          </Stack>
          <Chip
            icon={<MdiIcon path={ROLE_ICONS[profile.role]} fontSize="small" />}
            label={t(ROLE_LABELS[profile.role])}
            size="small"
            color={profile.role === 'USER' ? 'default' : 'primary'}
            variant="outlined"
            sx={{ mt: 1.5 }}
          />
          {profile.description && (
            <Typography variant="body2" sx={{ mt: 2, whiteSpace: 'pre-line' }}>
              {profile.description}
            </Typography>
          )}
        </Box>
      </Stack>
      <Typography variant="subtitle2" component="h2" sx={{ mt: 4, mb: 1, fontWeight: 700 }}>
        {t('groups')}
      </Typography>
      {profile.groups.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('profile_no_groups')}
        </Typography>
      ) : (
        <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
          {profile.groups.map((group) => (
            <Chip key={group._id} icon={<MdiIcon path={mdiAccountGroup} fontSize="small" />} label={group.name} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}
