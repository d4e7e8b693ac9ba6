import type { NetworkInterface } from '@bogwan/contracts';
import { mdiChevronDown } from '@mdi/js';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { k } from '../../../i18n/keys';
import { useNetwork } from '../api/get-network';
import { SectionState } from './section-state';

/** The label of each field of an address, in the reader's language (an unknown field shows its own name). */
export const NETWORK_FIELD_LABELS: Record<string, ReturnType<typeof k>> = {
  address: k('network_field_address'),
  netmask: k('network_field_netmask'),
  family: k('network_field_family'),
  mac: k('network_field_mac'),
  internal: k('network_field_internal'),
  cidr: k('network_field_cidr'),
  scopeid: k('network_field_scopeid'),
};

function InterfacePanel({ item }: { item: NetworkInterface }) {
  const { t } = useTranslation();
  const internal = item.addresses.every((a) => a.internal);
  return (
    <Accordion disableGutters variant="outlined" sx={{ '&:before': { display: 'none' } }}>
      <AccordionSummary expandIcon={<MdiIcon path={mdiChevronDown} />} aria-controls={`network-${item.name}`} id={`network-${item.name}-header`}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 700, fontFamily: 'monospace' }}>{item.name}</Typography>
          {internal && <Chip size="small" label={t('network_internal')} />}
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {item.addresses.map((a) => a.cidr ?? a.address).join(', ')}
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails id={`network-${item.name}`}>
        {item.addresses.map((address, index) => (
          <Fragment key={`${address.address}-${index}`}>
            {index > 0 && <Divider sx={{ my: 1.5 }} />}
            <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'minmax(7rem, max-content) 1fr', columnGap: 3, rowGap: 0.75, m: 0 }}>
              {Object.entries(address).map(([key, value]) => (
                <Fragment key={key}>
                  <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
                    {NETWORK_FIELD_LABELS[key] ? t(NETWORK_FIELD_LABELS[key]) : key}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, fontFamily: 'monospace', wordBreak: 'break-all' }}>
                    {value === null ? '—' : typeof value === 'boolean' ? (value ? t('network_yes') : t('network_no')) : String(value)}
                  </Typography>
                </Fragment>
              ))}
            </Box>
          </Fragment>
        ))}
      </AccordionDetails>
    </Accordion>
  );
}

/** Settings → System → Network: one collapsible panel per interface, its addresses as key/value pairs. */
export function NetworkSection() {
  const network = useNetwork();
  return (
    <SectionState query={network}>
      {(items) => (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, maxWidth: 860 }}>
          {items.map((item) => (
            <InterfacePanel key={item.name} item={item} />
          ))}
        </Box>
      )}
    </SectionState>
  );
}
