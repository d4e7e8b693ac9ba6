import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';
import { useId, type ChangeEventHandler, type InputHTMLAttributes, type ReactNode } from 'react';

export interface TextInputProps {
  label: ReactNode;
  value: string;
  onChange: ChangeEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  type?: string;
  size?: 'small' | 'medium';
  placeholder?: string;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  /** Keeps the label above the field even when it is empty (as for dates). */
  shrinkLabel?: boolean;
  /** Attributes of the `<input>` itself (min, max, step, maxLength…). */
  htmlInput?: InputHTMLAttributes<HTMLInputElement>;
  sx?: SxProps<Theme>;
}

/**
 * An outlined text field, as MUI's TextField draws it (label, outline, helper text, the same
 * accessible name and description), made of its parts: MUI's TextField also carries the code
 * of its `select` mode (Select, Menu, Popover) wherever it is used, which a page whose fields
 * are all typed into does not need.
 */
export function TextInput({ label, value, onChange, type, size, placeholder, disabled, error, helperText, shrinkLabel, htmlInput, sx }: TextInputProps) {
  const id = useId();
  const helperId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl variant="outlined" size={size} disabled={disabled} error={error} sx={sx}>
      <InputLabel htmlFor={id} id={`${id}-label`} shrink={shrinkLabel}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        type={type}
        value={value}
        onChange={onChange}
        placeholder={placeholder}
        label={label}
        notched={shrinkLabel}
        inputProps={htmlInput}
        aria-describedby={helperId}
      />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
