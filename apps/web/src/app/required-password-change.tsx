import Box from '@mui/material/Box';
import { ChangePasswordDialog } from '../features/settings/components/security/change-password-dialog';
import { useLogout } from '../features/auth/api/logout';
import { CatalogueParts } from '../i18n/catalogue-parts-gate';

/**
 * Shown instead of the app while the account still has the system's initial password
 * (the server refuses every other call until it is changed); afterwards the app continues.
 */
export function RequiredPasswordChange() {
  const logout = useLogout();
  // The password dialog's texts are in the settings part of the catalogue.
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <CatalogueParts parts={['settings']}>
        <ChangePasswordDialog open required onClose={() => {}} onSignOut={() => void logout()} />
      </CatalogueParts>
    </Box>
  );
}
