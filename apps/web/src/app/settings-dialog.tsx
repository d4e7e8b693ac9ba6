import { mdiArrowLeft, mdiClose } from '@mdi/js';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { Suspense, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountSection } from '../features/accounts/components/account-section';
import { ActivitySection } from '../features/activity/components/activity-section';
import { AuditRetentionSection } from '../features/activity/components/audit-retention-section';
import { GroupSection } from '../features/groups/components/group-section';
import { LicencePanel } from '../features/licence/components/licence-panel';
import { NotificationSection } from '../features/notifications/components/notification-section';
import { DefaultPermissionsSection } from '../features/permissions/components/default-permissions-section';
import { FolderPermissionsSection } from '../features/permissions/components/folder-permissions-section';
import { ResourceSection } from '../features/permissions/components/resource-section';
import { DeleteAccountSection } from '../features/profile/components/delete-account-section';
import { ProfileSection } from '../features/profile/components/profile-section';
import { AccessLogTable } from '../features/system/components/access-log-table';
import { InformationSection } from '../features/system/components/information-section';
import { NetworkSection } from '../features/system/components/network-section';
import { PolicySection } from '../features/system/components/policy-section';
import { MdiIcon } from '../components/mdi-icon';
import { Spinner } from '../components/spinner';
import { useAuth } from '../state/auth';
import { closeSettings, selectSetting, useSettingId } from '../state/settings';
import { initialSection, visibleGroups, type AvailableSection } from '../features/settings/components/sections';
import { SettingsTree } from '../features/settings/components/settings-tree';
import { CloudStorageSection } from '../features/storage/components/cloud-storage-section';
import { ServerStorageSection } from '../features/storage/components/server-storage-section';
import { VolumeSection } from '../features/storage/components/volume-section';
import { IncomingSection } from '../features/webhooks/components/incoming-section';
import { OutgoingSection } from '../features/webhooks/components/outgoing-section';
import { SecuritySection } from '../features/settings/components/security/security-section';
import { useFullScreenDialog } from '../components/use-full-screen-dialog';
import { CatalogueParts } from '../i18n/catalogue-parts-gate';

/** Dialog size from the spec; full screen below 768 px. */
const DIALOG_WIDTH = 1200;
const DIALOG_HEIGHT = 800;
const TREE_WIDTH = 260;

const SECTION_BODIES: Record<AvailableSection, ComponentType> = {
  profile: ProfileSection,
  delete: DeleteAccountSection,
  account: AccountSection,
  group: GroupSection,
  default_permissions: DefaultPermissionsSection,
  folder: FolderPermissionsSection,
  resource: ResourceSection,
  notification: NotificationSection,
  security: SecuritySection,
  activity: ActivitySection,
  audit: AuditRetentionSection,
  license: LicencePanel,
  information: InformationSection,
  network: NetworkSection,
  policy: PolicySection,
  log: AccessLogTable,
  server: ServerStorageSection,
  cloud: CloudStorageSection,
  volume: VolumeSection,
  incoming: IncomingSection,
  outgoing: OutgoingSection,
};

/** The settings dialog: section tree on the left, the selected section on the right. */
export function SettingsDialog({ open }: { open: boolean }) {
  // The sections' texts (and the access log's, a section too) are catalogue parts of their own.
  return (
    <CatalogueParts parts={['settings', 'log']}>
      <SettingsDialogBody open={open} />
    </CatalogueParts>
  );
}

function SettingsDialogBody({ open }: { open: boolean }) {
  const { t } = useTranslation();
  const auth = useAuth();
  const remembered = useSettingId();
  const fullScreen = useFullScreenDialog();
  // On a narrow screen the tree and the section take turns.
  const [narrowView, setNarrowView] = useState<'tree' | 'section'>('tree');
  const roleLevel = auth?.user.roleLevel ?? 1;
  const groups = visibleGroups(roleLevel);
  const section = initialSection(remembered, roleLevel);
  const Body = SECTION_BODIES[section.id as AvailableSection];
  const showTree = !fullScreen || narrowView === 'tree';
  const showSection = !fullScreen || narrowView === 'section';

  const closeButton = (
    <IconButton aria-label={t('close')} onClick={closeSettings} sx={{ ml: 'auto' }}>
      <MdiIcon path={mdiClose} />
    </IconButton>
  );

  return (
    <Dialog
      open={open && auth !== null}
      onClose={closeSettings}
      fullScreen={fullScreen}
      maxWidth={false}
      slotProps={{
        paper: {
          // Named by its text, not by the tree's heading: on a narrow screen the heading leaves with the tree.
          'aria-label': t('settings'),
          sx: fullScreen ? undefined : { width: DIALOG_WIDTH, height: DIALOG_HEIGHT, maxWidth: 'calc(100% - 64px)', maxHeight: 'calc(100% - 64px)' },
        },
      }}
    >
      <Box sx={{ display: 'flex', height: '100%', minHeight: 0 }}>
        {showTree && (
          <Box
            sx={{
              width: fullScreen ? '100%' : TREE_WIDTH,
              flexShrink: 0,
              display: 'flex',
              flexDirection: 'column',
              borderRight: fullScreen ? 0 : 1,
              borderColor: 'divider',
              bgcolor: 'action.hover',
            }}
          >
            <Box sx={{ display: 'flex', alignItems: 'center', px: 2.5, pt: 2, pb: 1 }}>
              <Typography id="settings-dialog-title" variant="h6" component="h2" sx={{ fontWeight: 700 }}>
                {t('settings')}
              </Typography>
              {fullScreen && closeButton}
            </Box>
            <SettingsTree
              groups={groups}
              selected={section.id}
              onSelect={(id) => {
                selectSetting(id);
                setNarrowView('section');
              }}
            />
          </Box>
        )}
        {showSection && (
          <Box component="section" aria-labelledby="settings-section-title" sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
            <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, px: 3, pt: 2.5, pb: 2 }}>
              {fullScreen && (
                <IconButton aria-label={t('settings_sections')} onClick={() => setNarrowView('tree')} sx={{ ml: -1.5, mt: -0.5 }}>
                  <MdiIcon path={mdiArrowLeft} />
                </IconButton>
              )}
              <div>
                <Typography id="settings-section-title" variant="h6" component="h3" sx={{ fontWeight: 700 }}>
                  {t(section.label)}
                </Typography>
                {section.description && (
                  <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.25, wordBreak: 'keep-all' }}>
                    {t(section.description)}
                  </Typography>
                )}
              </div>
              {!fullScreen && closeButton}
            </Box>
            <Divider />
            <Box sx={{ flexGrow: 1, minHeight: 0, overflowY: 'auto', px: 3, py: 3 }}>
              {/* A section may wait for a part of the catalogue (the policy list). */}
              <Suspense fallback={<Spinner />}>
                <Body />
              </Suspense>
            </Box>
          </Box>
        )}
      </Box>
    </Dialog>
  );
}
