import { MFA_METHODS, type MfaMethod } from '@bogwan/contracts';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../../components/notify';
import { k } from '../../../../i18n/keys';
import { useUpdateFactors } from '../../api/update-factors';
import { ConfirmPasswordDialog } from './confirm-password-dialog';

const LABELS = {
  none: k('mfa_none'),
  email: k('mfa_email'),
  otp: k('mfa_otp'),
} satisfies Record<MfaMethod, string>;

interface SecondFactorChoiceProps {
  mfa: MfaMethod;
  otpRegistered: boolean;
}

/**
 * None, email code, or authenticator app (only once an app is registered). A change is
 * saved once the current password confirms it; cancelling brings back the saved choice.
 */
export function SecondFactorChoice({ mfa, otpRegistered }: SecondFactorChoiceProps) {
  const { t } = useTranslation();
  const update = useUpdateFactors();
  // The choice shows at once, while the password is asked for; cancelling brings back the saved one.
  const [choosing, setChoosing] = useState<MfaMethod | null>(null);
  const shown = choosing ?? mfa;
  // The saved value has caught up (the answer landed in the cache): show it from now on.
  useEffect(() => setChoosing(null), [mfa]);

  return (
    <>
      <RadioGroup aria-label={t('security_second_factor')} value={shown} onChange={(_event, value) => setChoosing(value as MfaMethod)} sx={{ mt: 1 }}>
        {MFA_METHODS.map((method) => (
          <FormControlLabel
            key={method}
            value={method}
            disabled={update.isPending || (method === 'otp' && !otpRegistered)}
            control={<Radio size="small" />}
            label={
              <>
                {t(LABELS[method])}
                {method === 'otp' && !otpRegistered && (
                  <Typography component="span" variant="caption" sx={{ color: 'text.secondary', ml: 1 }}>
                    {t('mfa_otp_needs_app')}
                  </Typography>
                )}
              </>
            }
          />
        ))}
      </RadioGroup>
      <ConfirmPasswordDialog
        open={choosing !== null && choosing !== mfa}
        description={t('reauth_second_factor_description')}
        onConfirm={async (currentPassword) => {
          if (choosing === null) return;
          await update.mutateAsync({ mfa: choosing, currentPassword });
          notify(t('security_second_factor_saved'));
        }}
        onClose={() => setChoosing(null)}
      />
    </>
  );
}
