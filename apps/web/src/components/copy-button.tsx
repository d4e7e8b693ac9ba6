import { mdiContentCopy } from '@mdi/js';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from './lazy-tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from './mdi-icon';
import { notify } from './notify';
import { copyToClipboard } from './copy-to-clipboard';

export { copyToClipboard };

interface CopyButtonProps {
  text: string;
  /** What is copied, for screen readers and the tooltip ("Copy the password"). */
  label: string;
}

/** An icon button that copies `text` and says so. */
export function CopyButton({ text, label }: CopyButtonProps) {
  const { t } = useTranslation();
  return (
    <LazyTooltip title={label}>
      <IconButton
        size="small"
        aria-label={label}
        onClick={() =>
          void copyToClipboard(text).then(
            () => notify(t('copied_to_clipboard')),
            () => notify(t('copy_failed'), 'warning'),
          )
        }
      >
        <MdiIcon path={mdiContentCopy} fontSize="small" />
      </IconButton>
    </LazyTooltip>
  );
}

interface CopyableValueProps {
  label: string;
  value: string;
  /** The copy button's label. */
  copyLabel: string;
  /** Larger, spaced type for a secret someone may have to type. */
  emphasis?: boolean;
  'data-testid'?: string;
}

/** A labelled value (an address, a user name, a password) in monospace, with a copy button. */
export function CopyableValue({ label, value, copyLabel, emphasis, 'data-testid': testId }: CopyableValueProps) {
  return (
    <div>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, bgcolor: 'action.hover', borderRadius: 1, pl: 1.5, pr: 0.5, py: 0.5 }}>
        <Typography
          data-testid={testId}
          sx={{ fontFamily: 'monospace', fontSize: emphasis ? 16 : 14, fontWeight: emphasis ? 600 : undefined, wordBreak: 'break-all', flexGrow: 1 }}
        >
          {value}
        </Typography>
        <CopyButton text={value} label={copyLabel} />
      </Box>
    </div>
  );
}
