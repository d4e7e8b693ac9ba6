import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';
import { useId, type ReactNode } from 'react';

interface OutlinedFieldProps extends Omit<OutlinedInputProps, 'label' | 'sx' | 'size' | 'fullWidth'> {
  label: ReactNode;
  size?: 'small' | 'medium';
  fullWidth?: boolean;
  /** Keeps the label above the box even when it is empty (dates, a select with an empty choice). */
  shrink?: boolean;
  /** A line under the field (a hint, or what is wrong with `error`), which also describes it. */
  helperText?: ReactNode;
  sx?: SxProps<Theme>;
  /** Makes the field a native select of these `<option>` elements. */
  options?: ReactNode;
}

/**
 * An outlined text field with its label and helper text, like MUI's TextField with the outlined
 * variant (the same accessible name and description), made of its parts: MUI's TextField
 * always brings its `select` mode (Select, Menu, Popover), which a page whose fields are typed
 * into does not need. With `options` it is a native select, which needs no menu code either.
 */
export function OutlinedField({ label, size, fullWidth, shrink, helperText, sx, options, id, error, disabled, ...input }: OutlinedFieldProps) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const helperId = helperText ? `${inputId}-helper-text` : undefined;
  const outlined = <OutlinedInput {...input} id={inputId} label={label} notched={shrink || undefined} aria-describedby={helperId} />;
  return (
    <FormControl size={size} fullWidth={fullWidth} error={error} disabled={disabled} sx={sx}>
      <InputLabel htmlFor={inputId} shrink={shrink || undefined}>
        {label}
      </InputLabel>
      {options === undefined ? outlined : <NativeSelect input={outlined}>{options}</NativeSelect>}
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
