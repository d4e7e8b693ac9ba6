import { DELETE_ACCOUNT_REASONS, DELETE_ACCOUNT_REDIRECT_MS, PASSWORD_MAX_LENGTH, type DeleteAccountReason } from '@bogwan/contracts';
import { mdiAlertCircleOutline } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { k, messageText } from '../../../i18n/keys';
import { useLocalePath } from '../../../i18n/use-locale';
import { clearAuth, useAuth } from '../../../state/auth';
import { useDeleteOwnAccount } from '../api/update-profile';

const NOTICES = [k('delete_account_notice_1'), k('delete_account_notice_2'), k('delete_account_notice_3')];

const REASON_LABELS = {
  low_usage: k('delete_account_reason_low_usage'),
  delete_personal_data: k('delete_account_reason_delete_personal_data'),
  service_inconvenient: k('delete_account_reason_service_inconvenient'),
  other: k('delete_account_reason_other'),
} satisfies Record<DeleteAccountReason, string>;

/**
 * Deleting one's own account in two steps: the consequences and an agree box, then a
 * reason and the password. After success: 2 s, then user and token are cleared and the
 * sign-in page opens.
 */
export function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const queryClient = useQueryClient();
  const remove = useDeleteOwnAccount();
  const [step, setStep] = useState<1 | 2>(1);
  const [agreed, setAgreed] = useState(false);
  const [reason, setReason] = useState<DeleteAccountReason | ''>('');
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState(false);
  const [done, setDone] = useState(false);

  // Every opening starts again at step 1.
  useEffect(() => {
    if (open) {
      setStep(1);
      setAgreed(false);
      setReason('');
      setPassword('');
      setChecked(false);
      setDone(false);
      remove.reset();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => {
      void navigate(localePath('/auth/login'), { replace: true });
      clearAuth();
      queryClient.clear();
    }, DELETE_ACCOUNT_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate, localePath, queryClient]);

  const serverKey = remove.error instanceof ApiError ? remove.error.messageKey : remove.error ? 'request_error_message' : null;
  const passwordError =
    (checked && !password && k('rules_password')) || (remove.error instanceof ApiError && remove.error.status === 401 ? k('rules_password_not_match') : null);
  const reasonError = checked && !reason ? k('delete_account_reason_choice') : null;
  const otherError = serverKey && !(remove.error instanceof ApiError && remove.error.status === 401) ? serverKey : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step === 1) {
      if (agreed) setStep(2);
      return;
    }
    setChecked(true);
    if (!auth || !reason || !password || remove.isPending || done) return;
    remove.mutate({ _id: auth.user._id, password, reason }, { onSuccess: () => setDone(true) });
  };

  return (
    <Dialog open={open} onClose={done ? undefined : onClose} maxWidth="sm" fullWidth aria-labelledby="delete-account-title">
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'contents' }}>
        <DialogTitle id="delete-account-title">
          {t('settings_delete')} ({t('delete_account_step', { n: step, total: 2 })})
        </DialogTitle>
        <DialogContent>
          {done ? (
            <Alert severity="success">{t('delete_account_done')}</Alert>
          ) : step === 1 ? (
            <>
              <List dense aria-label={t('delete_account_notices')}>
                {NOTICES.map((notice) => (
                  <ListItem key={notice} disableGutters sx={{ alignItems: 'flex-start' }}>
                    <ListItemIcon sx={{ minWidth: 36, mt: 0.5 }}>
                      <MdiIcon path={mdiAlertCircleOutline} color="warning" fontSize="small" />
                    </ListItemIcon>
                    <ListItemText primary={t(notice)} sx={{ wordBreak: 'keep-all' }} />
                  </ListItem>
                ))}
              </List>
              <FormControlLabel
                control={<Checkbox checked={agreed} onChange={(event) => setAgreed(event.target.checked)} />}
                label={t('delete_account_agree')}
              />
            </>
          ) : (
            <Stack spacing={2.5} sx={{ pt: 1 }}>
              <FormControl error={Boolean(reasonError)}>
                <FormLabel id="delete-reason-label">{t('delete_account_reason')}</FormLabel>
                <RadioGroup aria-labelledby="delete-reason-label" value={reason} onChange={(event) => setReason(event.target.value as DeleteAccountReason)}>
                  {DELETE_ACCOUNT_REASONS.map((option) => (
                    <FormControlLabel key={option} value={option} control={<Radio size="small" />} label={t(REASON_LABELS[option])} />
                  ))}
                </RadioGroup>
                {reasonError && <FormHelperText>{t(reasonError)}</FormHelperText>}
              </FormControl>
              <TextField
                type="password"
                label={t('password')}
                autoComplete="current-password"
                value={password}
                onChange={(event) => {
                  setPassword(event.target.value);
                  if (remove.error) remove.reset();
                }}
                error={Boolean(passwordError)}
                helperText={passwordError ? t(passwordError) : undefined}
                slotProps={{ htmlInput: { maxLength: PASSWORD_MAX_LENGTH * 4 } }}
              />
              {otherError && <Alert severity="error">{messageText(t, otherError)}</Alert>}
            </Stack>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          {!done && <Button onClick={onClose}>{t('cancel')}</Button>}
          {!done && step === 2 && <Button onClick={() => setStep(1)}>{t('previous')}</Button>}
          {!done && step === 1 && (
            <Button type="submit" variant="contained" disabled={!agreed}>
              {t('next')}
            </Button>
          )}
          {!done && step === 2 && (
            <Button type="submit" variant="contained" color="error" loading={remove.isPending}>
              {t('settings_delete')}
            </Button>
          )}
        </DialogActions>
      </Box>
    </Dialog>
  );
}
