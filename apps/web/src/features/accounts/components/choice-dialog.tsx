import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ChoiceDialogProps<Value extends string> {
  open: boolean;
  title: string;
  message: string;
  options: { value: Value; label: string }[];
  busy?: boolean;
  onSave: (value: Value) => void;
  onClose: () => void;
}

/** The small status or role change dialog: Save stays disabled until a value is chosen. */
export function ChoiceDialog<Value extends string>({ open, title, message, options, busy, onSave, onClose }: ChoiceDialogProps<Value>) {
  const { t } = useTranslation();
  const [value, setValue] = useState<Value | ''>('');
  useEffect(() => {
    if (open) setValue('');
  }, [open]);

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="choice-dialog-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (value) onSave(value);
        }}
      >
        <DialogTitle id="choice-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 1 }}>{message}</DialogContentText>
          <RadioGroup aria-label={title} value={value} onChange={(event) => setValue(event.target.value as Value)}>
            {options.map((option) => (
              <FormControlLabel key={option.value} value={option.value} control={<Radio />} label={option.label} />
            ))}
          </RadioGroup>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!value} loading={busy}>
            {t('save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
