import type { RestoreConflict } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { messageText } from '../../../i18n/keys';
import { ItemBrowser } from './item-browser';

/** The restore wizard's second step: the items of the chosen snapshot to restore. */
export function ItemsStep(props: {
  runId: string;
  runText: string | null;
  items: string[];
  onItemsChange: (items: string[]) => void;
  onBack: () => void;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const { items, onItemsChange } = props;
  return (
    <Box>
      {props.runText && (
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          {props.runText}
        </Typography>
      )}
      <ItemBrowser runId={props.runId} selected={items} onChange={onItemsChange} />
      <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 1 }} aria-label={t('restore_selected')}>
        {items.map((item) => (
          <Chip key={item} size="small" label={item} onDelete={() => onItemsChange(items.filter((i) => i !== item))} />
        ))}
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 1.5 }}>
        <Button onClick={props.onBack}>{t('restore_back')}</Button>
        <Button variant="contained" disabled={items.length === 0} onClick={props.onNext}>
          {t('next')}
        </Button>
      </Box>
    </Box>
  );
}

/** The restore wizard's third step: where to put the items and what to do with a name already taken. */
export function TargetStep(props: {
  target: 'original' | 'folder';
  onTargetChange: (target: 'original' | 'folder') => void;
  folder: string;
  onFolderChange: (folder: string) => void;
  onConflict: RestoreConflict;
  onConflictChange: (onConflict: RestoreConflict) => void;
  /** The message key of a failed start. */
  error: string | null;
  busy: boolean;
  onBack: () => void;
  onSubmit: () => void;
}) {
  const { t } = useTranslation();
  const { target, folder, error } = props;
  const folderValid = folder.startsWith('/') && folder.trim() !== '/';
  return (
    <Box>
      <RadioGroup value={target} onChange={(event) => props.onTargetChange(event.target.value as 'original' | 'folder')} aria-label={t('restore_step_target')}>
        <FormControlLabel value="original" control={<Radio />} label={t('restore_target_original')} />
        <FormControlLabel value="folder" control={<Radio />} label={t('restore_target_folder')} />
      </RadioGroup>
      {target === 'folder' && (
        <TextField
          size="small"
          label={t('restore_target_path')}
          placeholder="/Team/restored"
          value={folder}
          onChange={(event) => props.onFolderChange(event.target.value)}
          error={folder !== '' && !folderValid}
          helperText={t('restore_target_path_help')}
          sx={{ mt: 1, minWidth: 320 }}
        />
      )}
      <Typography variant="body2" id="restore-conflict-label" sx={{ mt: 2 }}>
        {t('restore_conflict_rule')}
      </Typography>
      <RadioGroup
        value={props.onConflict}
        onChange={(event) => props.onConflictChange(event.target.value as RestoreConflict)}
        aria-labelledby="restore-conflict-label"
      >
        <FormControlLabel value="keep-both" control={<Radio />} label={t('restore_conflict_keep_both')} />
        <FormControlLabel value="replace" control={<Radio />} label={t('restore_conflict_replace')} />
      </RadioGroup>
      {error && (
        <Alert severity="error" sx={{ mt: 1.5 }} role="alert">
          {messageText(t, error)}
        </Alert>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 1.5 }}>
        <Button onClick={props.onBack}>{t('restore_back')}</Button>
        <Button variant="contained" disabled={props.busy || (target === 'folder' && !folderValid)} onClick={props.onSubmit}>
          {t('restore_start')}
        </Button>
      </Box>
    </Box>
  );
}
