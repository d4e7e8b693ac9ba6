import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';
import { useId, type ReactNode } from 'react';

interface OutlinedFieldProps extends Omit<OutlinedInputProps, 'label' | 'sx' | 'size' | 'fullWidth'> {
  label: string;
  size?: 'small' | 'medium';
  fullWidth?: boolean;
  /** Keeps the label above the box even when it is empty (dates, a select with an empty choice). */
  shrink?: boolean;
  sx?: SxProps<Theme>;
  /** Makes the field a native select of these `<option>` elements. */
  options?: ReactNode;
}

/**
 * An outlined text field with its label, like MUI's TextField with the outlined variant, made
 * of its parts: a page that uses it does not load MUI's Select (which TextField always brings).
 * With `options` it is a native select, which needs no menu code either.
 */
export function OutlinedField({ label, size, fullWidth, shrink, sx, options, id, ...input }: OutlinedFieldProps) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const outlined = <OutlinedInput {...input} id={inputId} label={label} notched={shrink || undefined} />;
  return (
    <FormControl size={size} fullWidth={fullWidth} sx={sx}>
      <InputLabel htmlFor={inputId} shrink={shrink || undefined}>
        {label}
      </InputLabel>
      {options === undefined ? outlined : <NativeSelect input={outlined}>{options}</NativeSelect>}
    </FormControl>
  );
}
