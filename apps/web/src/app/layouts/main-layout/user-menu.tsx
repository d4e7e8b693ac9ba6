import IconButton from '@mui/material/IconButton';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Deferred } from '../../../components/deferred';
import { UserAvatar } from '../../../components/user-avatar';
import { useAuth } from '../../../state/auth';

// The menu's code arrives when it is first opened.
const UserMenuList = lazy(() => import('./user-menu-list').then((m) => ({ default: m.UserMenuList })));

/** Avatar button with profile, theme, language and sign-out. */
export function UserMenu() {
  const { t } = useTranslation();
  const auth = useAuth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!auth) return null;
  const { user } = auth;

  return (
    <>
      <IconButton
        aria-label={t('user_menu')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ p: 0.5 }}
      >
        <UserAvatar name={user.name} role={user.role} profileImage={user.profileImage} size={34} />
      </IconButton>
      <Deferred open={Boolean(anchor)}>
        <UserMenuList anchor={anchor} onClose={() => setAnchor(null)} />
      </Deferred>
    </>
  );
}
