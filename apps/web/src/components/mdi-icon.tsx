import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';

export interface MdiIconProps extends Omit<SvgIconProps, 'children'> {
  /** An icon path from @mdi/js. */
  path: string;
}

/** A Material Design Icons glyph rendered as a MUI SvgIcon. */
export function MdiIcon({ path, ...props }: MdiIconProps) {
  return (
    <SvgIcon {...props}>
      <path d={path} />
    </SvgIcon>
  );
}
