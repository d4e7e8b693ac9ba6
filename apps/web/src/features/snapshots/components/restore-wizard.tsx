import type { RestoreConflict, SnapshotRun } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { formatDateTime } from '../../../i18n/format-time';
import { k } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useStartRestore } from '../api/restores';
import { useRuns } from '../api/runs';
import { formatBytes } from '../../../lib/format-bytes';

// The second and third steps (the item browser, the target form) load their code when reached.
const ItemsStep = lazy(() => import('./restore-wizard-steps').then((m) => ({ default: m.ItemsStep })));
const TargetStep = lazy(() => import('./restore-wizard-steps').then((m) => ({ default: m.TargetStep })));

const runLabel = (run: SnapshotRun, locale: string) => `${run.planName} · ${formatDateTime(run.startedAt, locale)}`;

/**
 * Restore in three steps: a snapshot, the items, where to put them (their own place, or
 * another folder). Files already in place with the same content are kept; a name taken
 * by different content gets a numbered name, nothing is overwritten.
 */
export function RestoreWizard({ initialRun }: { initialRun: string | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const runs = useRuns({ completed: true, skip: 0, limit: 100 });
  const start = useStartRestore();
  const [runId, setRunId] = useState<string | null>(initialRun);
  const [step, setStep] = useState(initialRun ? 1 : 0);
  const [items, setItems] = useState<string[]>([]);
  const [target, setTarget] = useState<'original' | 'folder'>('original');
  const [folder, setFolder] = useState('');
  const [onConflict, setOnConflict] = useState<RestoreConflict>('keep-both');
  const [error, setError] = useState<string | null>(null);
  const run = runs.data?.items.find((r) => r._id === runId) ?? null;

  const reset = () => {
    setStep(0);
    setItems([]);
    setTarget('original');
    setFolder('');
    setOnConflict('keep-both');
    setError(null);
  };
  const submit = () => {
    if (!runId) return;
    start.mutate(
      { runId, items, target: target === 'original' ? { kind: 'original' } : { kind: 'folder', path: folder.trim() }, onConflict },
      {
        onSuccess: () => {
          notify(t('restore_started'));
          reset();
        },
        onError: (e) => setError(e instanceof ApiError ? e.messageKey : 'request_error_message'),
      },
    );
  };

  return (
    <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }} aria-label={t('restore_wizard')} component="section">
      <Stepper activeStep={step} sx={{ mb: 2 }}>
        <Step>
          <StepLabel>{t('restore_step_snapshot')}</StepLabel>
        </Step>
        <Step>
          <StepLabel>{t('restore_step_items')}</StepLabel>
        </Step>
        <Step>
          <StepLabel>{t('restore_step_target')}</StepLabel>
        </Step>
      </Stepper>

      {step === 0 && (
        <Box>
          {runs.data?.items.length === 0 && <Typography sx={{ color: 'text.secondary' }}>{t('restore_no_snapshots')}</Typography>}
          <RadioGroup
            value={runId ?? ''}
            onChange={(event) => setRunId(event.target.value)}
            aria-label={t('restore_step_snapshot')}
            sx={{ maxHeight: 320, overflow: 'auto', flexWrap: 'nowrap' }}
          >
            {runs.data?.items.map((r) => (
              <FormControlLabel
                key={r._id}
                value={r._id}
                control={<Radio />}
                label={
                  <Box>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {runLabel(r, locale)}
                    </Typography>
                    <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                      {t(r.backupType === 'full' ? k('snapshot_type_full') : k('snapshot_type_incremental'))} · {t('snapshot_files_count', { count: r.files })}{' '}
                      · {formatBytes(r.size, locale)}
                    </Typography>
                  </Box>
                }
              />
            ))}
          </RadioGroup>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
            <Button variant="contained" disabled={!runId} onClick={() => setStep(1)}>
              {t('next')}
            </Button>
          </Box>
        </Box>
      )}

      <Suspense fallback={null}>
        {step === 1 && runId && (
          <ItemsStep
            runId={runId}
            runText={run ? runLabel(run, locale) : null}
            items={items}
            onItemsChange={setItems}
            onBack={reset}
            onNext={() => setStep(2)}
          />
        )}
        {step === 2 && (
          <TargetStep
            target={target}
            onTargetChange={setTarget}
            folder={folder}
            onFolderChange={setFolder}
            onConflict={onConflict}
            onConflictChange={setOnConflict}
            error={error}
            busy={start.isPending}
            onBack={() => setStep(1)}
            onSubmit={submit}
          />
        )}
      </Suspense>
    </Paper>
  );
}
