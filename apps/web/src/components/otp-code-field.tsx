import { OTP_LENGTH } from '@bogwan/contracts';
import TextField from '@mui/material/TextField';
import { useEffect, useRef } from 'react';

export interface OtpCodeFieldProps {
  /** The digits typed so far. */
  value: string;
  onChange: (value: string) => void;
  /** Called once when the sixth digit arrives; fewer digits never call it. */
  onComplete: (code: string) => void;
  label: string;
  /** While true (a verification is running) the field cannot be edited. */
  disabled?: boolean;
  /** A translated error shown under the field. */
  error?: string | null;
  helperText?: string;
  autoFocus?: boolean;
}

/** The 6-digit one-time-code input: digits only, verifies on its own when complete. */
export function OtpCodeField({ value, onChange, onComplete, label, disabled, error, helperText, autoFocus }: OtpCodeFieldProps) {
  const inputRef = useRef<HTMLInputElement>(null);

  // Back to typing after a verification failed.
  useEffect(() => {
    if (!disabled && autoFocus) inputRef.current?.focus();
  }, [disabled, autoFocus]);

  return (
    <TextField
      inputRef={inputRef}
      label={label}
      value={value}
      disabled={disabled}
      autoFocus={autoFocus}
      autoComplete="one-time-code"
      error={Boolean(error)}
      helperText={error || helperText}
      onChange={(event) => {
        const digits = event.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH);
        onChange(digits);
        if (digits.length === OTP_LENGTH && digits !== value) onComplete(digits);
      }}
      slotProps={{
        htmlInput: {
          inputMode: 'numeric',
          pattern: '[0-9]*',
          maxLength: OTP_LENGTH,
          spellCheck: false,
          style: { textAlign: 'center', letterSpacing: '0.5em', fontSize: 24, fontVariantNumeric: 'tabular-nums' },
        },
      }}
    />
  );
}
