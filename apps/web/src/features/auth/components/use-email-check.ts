import { checkEmail } from '@bogwan/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The sign-in forms' e-mail rule: a malformed address shows its message (under the
 * field, announced) once the field is left or the form is sent, and stops the sending.
 */
export function useEmailCheck(email: string) {
  const { t } = useTranslation();
  const [checked, setChecked] = useState(false);
  const rule = checkEmail(email);
  const shown = checked && email.trim() !== '' ? rule : null;
  return {
    /** Props for the e-mail TextField. */
    fieldProps: {
      error: shown !== null,
      helperText: shown ? t(shown) : undefined,
      onBlur: () => setChecked(true),
      slotProps: { formHelperText: { role: shown ? 'alert' : undefined } },
    },
    /** Call before sending: false (and the message shows) when the address is malformed. */
    passes: (): boolean => {
      setChecked(true);
      return rule === null;
    },
  };
}
