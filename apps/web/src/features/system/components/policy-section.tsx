import { SEARCH_MAX_LENGTH, SETTINGS_PAGE_SIZE, type Policy } from '@bogwan/contracts';
import { mdiInformationOutline, mdiMagnify } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { Fragment, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { PagedTable, type PagedColumn } from '../../../components/paged-table';
import { usePaging } from '../../../components/use-paging';
import { useCataloguePart } from '../../../i18n';
import { k } from '../../../i18n/keys';
import { POLICY_CATEGORY_PREFIX, POLICY_DESCRIPTION_PREFIX } from '../../../i18n/server-text-keys';
import { usePolicies } from '../api/get-policies';
import { SectionState } from './section-state';

const LEVEL_LABELS = {
  0: k('policy_level_public'),
  1: k('policy_level_user'),
  2: k('policy_level_admin'),
  3: k('policy_level_master'),
} as const;

function LevelChip({ level }: { level: Policy['level'] }) {
  const { t } = useTranslation();
  return <Chip size="small" variant="outlined" color={level >= 2 ? 'primary' : 'default'} label={`${level} · ${t(LEVEL_LABELS[level])}`} />;
}

/** A policy's description in the reader's language (the server's English text for a policy the catalogues do not know yet). */
export function policyDescription(t: TFunction, policy: Policy): string {
  return t(`${POLICY_DESCRIPTION_PREFIX}${policy.name}`, { defaultValue: policy.description });
}

/** A policy's category in the reader's language (its id for a category the catalogues do not know yet). */
export function policyCategory(t: TFunction, policy: Pick<Policy, 'category'>): string {
  return t(`${POLICY_CATEGORY_PREFIX}${policy.category}`, { defaultValue: policy.category });
}

/** Whether a policy matches a keyword in any of its texts (its description as the reader sees it, or in English). */
export function policyMatches(policy: Policy, keyword: string, description = policy.description, category = policy.category): boolean {
  const needle = keyword.trim().toLowerCase();
  if (!needle) return true;
  return [policy.category, category, policy.name, description, policy.description, policy.uri, policy.method].some((text) =>
    text.toLowerCase().includes(needle),
  );
}

function PolicyDetails({ policy, onClose }: { policy: Policy | null; onClose: () => void }) {
  const { t } = useTranslation();
  const rows: [string, React.ReactNode][] = policy
    ? [
        [t('policy_category'), policyCategory(t, policy)],
        [t('policy_name'), policy.name],
        [t('policy_description'), policyDescription(t, policy)],
        [
          t('policy_uri'),
          <Box component="span" sx={{ fontFamily: 'monospace' }}>
            {policy.uri}
          </Box>,
        ],
        [
          t('policy_method'),
          <Box component="span" sx={{ fontFamily: 'monospace' }}>
            {policy.method}
          </Box>,
        ],
        [t('policy_level'), <LevelChip level={policy.level} />],
      ]
    : [];
  return (
    <Dialog open={policy !== null} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="policy-details-title">
      <DialogTitle id="policy-details-title">{t('policy_details')}</DialogTitle>
      <DialogContent>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 1.25, m: 0 }}>
          {rows.map(([label, value]) => (
            <Fragment key={label}>
              <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
                {label}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
                {value}
              </Typography>
            </Fragment>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function columns(t: TFunction, open: (policy: Policy) => void): PagedColumn<Policy>[] {
  return [
    { id: 'category', label: t('policy_category'), width: 140, render: (row) => policyCategory(t, row) },
    {
      id: 'name',
      label: t('policy_name'),
      width: 190,
      render: (row) => (
        <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
          {row.name}
        </Box>
      ),
    },
    { id: 'description', label: t('policy_description'), render: (row) => policyDescription(t, row) },
    { id: 'level', label: t('policy_level'), width: 130, render: (row) => <LevelChip level={row.level} /> },
    {
      id: 'details',
      label: '',
      width: 48,
      align: 'right',
      render: (row) => (
        <Tooltip title={t('policy_details')}>
          <IconButton size="small" aria-label={`${t('policy_details')}: ${row.method} ${row.uri}`} onClick={() => open(row)}>
            <MdiIcon path={mdiInformationOutline} fontSize="small" />
          </IconButton>
        </Tooltip>
      ),
    },
  ];
}

function PolicyTable({ policies }: { policies: Policy[] }) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [selected, setSelected] = useState<Policy | null>(null);
  const paging = usePaging(SETTINGS_PAGE_SIZE);
  const matching = useMemo(
    () => policies.filter((policy) => policyMatches(policy, keyword, policyDescription(t, policy), policyCategory(t, policy))),
    [policies, keyword, t],
  );
  return (
    <Box>
      <TextField
        size="small"
        value={keyword}
        onChange={(event) => {
          setKeyword(event.target.value);
          paging.setPage(0);
        }}
        placeholder={t('policy_search')}
        aria-label={t('policy_search')}
        slotProps={{
          htmlInput: { maxLength: SEARCH_MAX_LENGTH },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <MdiIcon path={mdiMagnify} fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
        sx={{ width: 300, mb: 1.5 }}
      />
      <PagedTable
        label={t('settings_policy')}
        columns={columns(t, setSelected)}
        rows={paging.slice(matching)}
        rowKey={(row) => `${row.method} ${row.uri}`}
        total={matching.length}
        {...paging.props}
        empty={policies.length > 0 ? t('no_search_result') : t('no_data')}
      />
      <PolicyDetails policy={selected} onClose={() => setSelected(null)} />
    </Box>
  );
}

/** Settings → System → Policy: every route with the role level the server enforces, from the same data. */
export function PolicySection() {
  // The policy texts are a catalogue part of their own: the section waits for them.
  useCataloguePart('policy');
  const policies = usePolicies();
  return <SectionState query={policies}>{(data) => <PolicyTable policies={data} />}</SectionState>;
}
