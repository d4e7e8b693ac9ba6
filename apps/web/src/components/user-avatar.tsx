import type { Role } from '@bogwan/contracts';
import { mdiAccount, mdiAccountGroup, mdiShieldAccount, mdiShieldStar } from '@mdi/js';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { k } from '../i18n/keys';
import { useLocalePath } from '../i18n/use-locale';
import { closeSettings } from '../state/settings';
import { MdiIcon } from './mdi-icon';

/** The spec's role icons: MASTER shield-star, ADMIN shield-account, anyone else account. */
export const ROLE_ICONS: Record<Role, string> = { MASTER: mdiShieldStar, ADMIN: mdiShieldAccount, USER: mdiAccount };

export const ROLE_LABELS = { MASTER: k('role_master'), ADMIN: k('role_admin'), USER: k('role_user') } satisfies Record<Role, string>;

/** First letter of a name for an avatar without an image. */
export function initialOf(name: string): string {
  return Array.from(name.trim())[0]?.toUpperCase() ?? '?';
}

/** A steady colour per name, so the same person keeps the same colour everywhere. */
const COLOURS = ['#1e88e5', '#43a047', '#8e24aa', '#f4511e', '#00897b', '#6d4c41', '#3949ab', '#c0ca33'];
function colourOf(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return COLOURS[hash % COLOURS.length] as string;
}

export interface UserAvatarProps {
  name: string;
  /** With an email (and `link`), clicking opens the profile page /user/{email}. */
  email?: string;
  role?: Role | string;
  profileImage?: string | null;
  size?: number;
  /** A group: a people icon instead of a person's initial. */
  group?: boolean;
  /** Opens /user/{email} when clicked. */
  link?: boolean;
}

/** Avatar of a person (image or initial, with the role icon) or of a group (people icon). */
export function UserAvatar({ name, email, role, profileImage, size = 32, group, link }: UserAvatarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const known = role === 'MASTER' || role === 'ADMIN' || role === 'USER' ? (role as Role) : null;
  const avatar = (
    <Avatar
      src={group ? undefined : (profileImage ?? undefined)}
      alt={name}
      sx={{ width: size, height: size, fontSize: Math.round(size * 0.45), bgcolor: group ? 'secondary.main' : colourOf(name) }}
    >
      {group ? <MdiIcon path={mdiAccountGroup} sx={{ fontSize: Math.round(size * 0.6) }} /> : initialOf(name)}
    </Avatar>
  );
  const badged =
    known && !group ? (
      <Badge
        overlap="circular"
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        badgeContent={
          <Box
            component="span"
            title={t(ROLE_LABELS[known])}
            data-role-icon={known}
            sx={{
              display: 'grid',
              placeItems: 'center',
              width: Math.max(14, Math.round(size * 0.42)),
              height: Math.max(14, Math.round(size * 0.42)),
              borderRadius: '50%',
              bgcolor: 'background.paper',
              color: known === 'MASTER' ? 'warning.main' : known === 'ADMIN' ? 'primary.main' : 'text.secondary',
              boxShadow: 1,
            }}
          >
            <MdiIcon path={ROLE_ICONS[known]} sx={{ fontSize: Math.max(11, Math.round(size * 0.32)) }} />
          </Box>
        }
      >
        {avatar}
      </Badge>
    ) : (
      avatar
    );
  if (!link || !email || group) return badged;
  return (
    <ButtonBase
      aria-label={t('open_profile_of', { name })}
      onClick={(event) => {
        event.stopPropagation();
        closeSettings();
        void navigate(localePath(`/user/${encodeURIComponent(email)}`));
      }}
      sx={{ borderRadius: '50%' }}
    >
      {badged}
    </ButtonBase>
  );
}
