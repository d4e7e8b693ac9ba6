import type { BulkPreview, BulkRow } from '@bogwan/contracts';
import { mdiAccountMultiplePlus, mdiRefresh } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { k, messageText } from '../../../i18n/keys';
import { useCheckRows, useRegisterRows } from '../api/bulk-register';
import { BULK_LISTS, allRows, canRegister, replaceRow, totalRows, type BulkListName } from '../lib/bulk-rows';
import { BulkListTable } from './bulk-list-table';

const LIST_LABELS = {
  invalid: k('bulk_list_invalid'),
  duplicate: k('bulk_list_duplicate'),
  available: k('bulk_list_available'),
} satisfies Record<BulkListName, string>;

function firstNonEmpty(preview: BulkPreview): BulkListName {
  return BULK_LISTS.find((name) => preview[name].length > 0) ?? 'available';
}

/**
 * Bulk registration preview: invalid input, duplicate email and available to register, each
 * an editable list. Edited rows are sorted again with Check; Register creates the available
 * ones; the dialog closes when every row is gone.
 */
export function BulkRegisterDialog({ initial, onClose }: { initial: BulkPreview | null; onClose: () => void }) {
  const { t } = useTranslation();
  const check = useCheckRows();
  const register = useRegisterRows();
  const [preview, setPreview] = useState<BulkPreview | null>(initial);
  const [tab, setTab] = useState<BulkListName>('available');

  useEffect(() => {
    setPreview(initial);
    if (initial) setTab(initial.available.length > 0 ? 'available' : firstNonEmpty(initial));
  }, [initial]);

  // Every row removed or registered: nothing is left to do here.
  useEffect(() => {
    if (preview && totalRows(preview) === 0) onClose();
  }, [preview, onClose]);

  if (!preview) return null;

  const failed = (error: unknown) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error');

  const recheck = (rows: BulkRow[]) =>
    check.mutate(rows, {
      onSuccess: (next) => {
        setPreview(next);
        if (next[tab].length === 0) setTab(firstNonEmpty(next));
      },
      onError: failed,
    });

  const submit = () => {
    const list = preview.available;
    if (list.length === 0) return notify(t('no_register_information'), 'warning');
    if (!canRegister(list)) return notify(t('check_input_message'), 'warning');
    register.mutate(list, {
      onSuccess: ({ created }) => {
        notify(t('bulk_registered', { count: created }));
        const next = { ...preview, available: [] };
        setPreview(next);
        setTab(firstNonEmpty(next));
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409) {
          notify(t('check_input_message'), 'warning');
          recheck(allRows(preview));
        } else failed(error);
      },
    });
  };

  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="bulk-register-title">
      <DialogTitle id="bulk-register-title">{t('account_bulk_register')}</DialogTitle>
      <DialogContent>
        <Alert severity="info" sx={{ mb: 1 }}>
          {t('bulk_register_help')}
        </Alert>
        <Tabs value={tab} onChange={(_event, value: BulkListName) => setTab(value)} sx={{ borderBottom: 1, borderColor: 'divider' }}>
          {BULK_LISTS.map((name) => (
            <Tab
              key={name}
              value={name}
              label={
                <Badge badgeContent={preview[name].length} color={name === 'available' ? 'primary' : 'error'} showZero max={999} sx={{ pr: 2 }}>
                  {t(LIST_LABELS[name])}
                </Badge>
              }
            />
          ))}
        </Tabs>
        <Box sx={{ pt: 1, minHeight: 300 }}>
          <BulkListTable
            key={tab}
            label={t(LIST_LABELS[tab])}
            rows={preview[tab]}
            showError={tab !== 'available'}
            onChange={(index, row) => setPreview(replaceRow(preview, tab, index, row))}
            onRemove={(index) => setPreview(replaceRow(preview, tab, index, null))}
          />
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button startIcon={<MdiIcon path={mdiRefresh} />} loading={check.isPending} onClick={() => recheck(allRows(preview))}>
          {t('bulk_check_again')}
        </Button>
        <Button variant="contained" startIcon={<MdiIcon path={mdiAccountMultiplePlus} />} loading={register.isPending} onClick={submit}>
          {t('bulk_register_submit', { n: preview.available.length })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
