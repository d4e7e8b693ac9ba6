import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { k, type TranslationKey } from '../../../i18n/keys';
import { chooseForAll, choicesFor, defaultChoice, type ConflictChoice, type UploadConflict } from '../lib/conflicts';
import type { ConflictQuestion } from './upload-conflict-host';

const CHOICE_LABEL = {
  replace: k('upload_conflict_replace'),
  'keep-both': k('upload_conflict_keep_both'),
  skip: k('upload_conflict_skip'),
} as const satisfies Record<ConflictChoice, TranslationKey>;
const ALL_CHOICES: ConflictChoice[] = ['replace', 'keep-both', 'skip'];

/** What a choice does to one file, in a short line under its name. */
function ChoiceHint({ conflict, choice }: { conflict: UploadConflict; choice: ConflictChoice }) {
  const { t } = useTranslation();
  const text =
    choice === 'replace'
      ? t('upload_conflict_replace_hint')
      : choice === 'keep-both'
        ? t('upload_conflict_keep_both_hint', { name: conflict.suggested.split('/').at(-1) })
        : t('upload_conflict_skip_hint');
  return (
    <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
      {conflict.kind === 'folder' ? `${t('upload_conflict_folder_hint')} · ${text}` : text}
    </Typography>
  );
}

const initialChoices = (question: ConflictQuestion | null) => new Map((question?.conflicts ?? []).map((c) => [c.name, defaultChoice(c)]));

/**
 * Asks what to do with the names of a drop that already exist (replace, keep both or skip),
 * per file or for all (the question of UploadConflictHost; its code loads with the first
 * question). Cancel sends nothing.
 */
export function UploadConflictDialog({ question, onAnswered }: { question: ConflictQuestion | null; onAnswered: () => void }) {
  const { t } = useTranslation();
  const [choices, setChoices] = useState<Map<string, ConflictChoice>>(() => initialChoices(question));
  // A new question starts from each file's default choice.
  const [asked, setAsked] = useState(question);
  if (question !== asked) {
    setAsked(question);
    if (question) setChoices(initialChoices(question));
  }

  const close = (answer: Map<string, ConflictChoice> | null) => {
    question?.answer(answer);
    onAnswered();
  };
  const conflicts = question?.conflicts ?? [];

  return (
    <Dialog open={question !== null} onClose={() => close(null)} maxWidth="sm" fullWidth aria-labelledby="upload-conflict-title">
      <DialogTitle id="upload-conflict-title">{t('upload_conflict_title', { count: conflicts.length })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('upload_conflict_message', { path: question?.target ?? '' })}</DialogContentText>
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1.5 }}>
          <Typography variant="body2" sx={{ fontWeight: 700, mr: 0.5 }}>
            {t('upload_conflict_all')}
          </Typography>
          {ALL_CHOICES.map((choice) => (
            <Button key={choice} size="small" variant="outlined" onClick={() => setChoices(chooseForAll(conflicts, choices, choice))}>
              {t(CHOICE_LABEL[choice])}
            </Button>
          ))}
        </Box>
        <Box
          component="ul"
          sx={{ listStyle: 'none', m: 0, p: 0, maxHeight: 360, overflowY: 'auto' }}
          aria-label={t('upload_conflict_title', { count: conflicts.length })}
        >
          {conflicts.map((conflict) => {
            const choice = choices.get(conflict.name) ?? defaultChoice(conflict);
            return (
              <Box
                component="li"
                key={conflict.name}
                data-testid="upload-conflict-row"
                sx={{
                  display: 'flex',
                  alignItems: { xs: 'stretch', sm: 'center' },
                  flexDirection: { xs: 'column', sm: 'row' },
                  gap: 1,
                  py: 1,
                  borderTop: 1,
                  borderColor: 'divider',
                }}
              >
                <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                  <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: 'break-all' }}>
                    {conflict.name}
                  </Typography>
                  <ChoiceHint conflict={conflict} choice={choice} />
                </Box>
                <ToggleButtonGroup
                  size="small"
                  exclusive
                  value={choice}
                  aria-label={conflict.name}
                  onChange={(_event, next: ConflictChoice | null) => next && setChoices(new Map(choices).set(conflict.name, next))}
                  sx={{ flexShrink: 0 }}
                >
                  {ALL_CHOICES.map((option) => (
                    <ToggleButton key={option} value={option} disabled={!choicesFor(conflict).includes(option)} sx={{ px: 1.25, whiteSpace: 'nowrap' }}>
                      {t(CHOICE_LABEL[option])}
                    </ToggleButton>
                  ))}
                </ToggleButtonGroup>
              </Box>
            );
          })}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => close(null)}>{t('cancel')}</Button>
        <Button variant="contained" onClick={() => close(choices)} autoFocus>
          {t('upload')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
