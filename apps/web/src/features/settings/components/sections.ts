import {
  mdiAccountCircleOutline,
  mdiAccountGroupOutline,
  mdiAccountMultipleOutline,
  mdiAccountRemoveOutline,
  mdiBellOutline,
  mdiCertificateOutline,
  mdiChartDonut,
  mdiCloudOutline,
  mdiFileDocumentOutline,
  mdiFolderKeyOutline,
  mdiFormatListBulleted,
  mdiHistory,
  mdiInformationOutline,
  mdiLanConnect,
  mdiServer,
  mdiShieldCheckOutline,
  mdiShieldSearch,
  mdiShieldLockOutline,
  mdiTextBoxSearchOutline,
  mdiSend,
  mdiWebhook,
} from '@mdi/js';
import { k, type TranslationKey } from '../../../i18n/keys';
import type { SettingId } from '../../../state/settings';

/** Sections that exist now; the rest of the spec's tree is shown but cannot be opened yet. */
export type AvailableSection =
  | 'profile'
  | 'delete'
  | 'account'
  | 'group'
  | 'default_permissions'
  | 'folder'
  | 'resource'
  | 'server'
  | 'cloud'
  | 'volume'
  | 'incoming'
  | 'outgoing'
  | 'notification'
  | 'security'
  | 'activity'
  | 'license'
  | 'information'
  | 'network'
  | 'policy'
  | 'log'
  | 'audit';

export interface SettingSection {
  id: SettingId;
  label: TranslationKey;
  icon: string;
  /** Lowest roleLevel that sees the section. */
  minLevel: 1 | 2;
  /** Title description shown above the section; only sections that can be opened have one. */
  description?: TranslationKey;
  available: boolean;
}

export interface SettingGroup {
  id: string;
  label: TranslationKey;
  minLevel: 1 | 2;
  sections: SettingSection[];
}

/** The spec's section tree: Private for everyone, the rest for roleLevel 2 and above. */
export const SETTING_GROUPS: SettingGroup[] = [
  {
    id: 'private',
    label: k('settings_group_private'),
    minLevel: 1,
    sections: [
      {
        id: 'profile',
        label: k('settings_profile'),
        description: k('settings_profile_description'),
        icon: mdiAccountCircleOutline,
        minLevel: 1,
        available: true,
      },
      {
        id: 'notification',
        label: k('settings_notification'),
        description: k('settings_notification_description'),
        icon: mdiBellOutline,
        minLevel: 1,
        available: true,
      },
      {
        id: 'security',
        label: k('settings_security'),
        description: k('settings_security_description'),
        icon: mdiShieldLockOutline,
        minLevel: 1,
        available: true,
      },
      {
        id: 'activity',
        label: k('settings_activity'),
        description: k('settings_activity_description'),
        icon: mdiHistory,
        minLevel: 1,
        available: true,
      },
      {
        id: 'delete',
        label: k('settings_delete'),
        description: k('settings_delete_description'),
        icon: mdiAccountRemoveOutline,
        minLevel: 1,
        available: true,
      },
    ],
  },
  {
    id: 'user',
    label: k('settings_group_user'),
    minLevel: 2,
    sections: [
      {
        id: 'account',
        label: k('settings_account'),
        description: k('settings_account_description'),
        icon: mdiAccountMultipleOutline,
        minLevel: 2,
        available: true,
      },
      {
        id: 'group',
        label: k('settings_group'),
        description: k('settings_group_description'),
        icon: mdiAccountGroupOutline,
        minLevel: 2,
        available: true,
      },
    ],
  },
  {
    id: 'storage',
    label: k('settings_group_storage'),
    minLevel: 2,
    sections: [
      {
        id: 'server',
        label: k('settings_server'),
        description: k('settings_server_description'),
        icon: mdiServer,
        minLevel: 2,
        available: true,
      },
      {
        id: 'cloud',
        label: k('settings_cloud'),
        description: k('settings_cloud_description'),
        icon: mdiCloudOutline,
        minLevel: 2,
        available: true,
      },
      {
        id: 'volume',
        label: k('settings_volume'),
        description: k('settings_volume_description'),
        icon: mdiChartDonut,
        minLevel: 2,
        available: true,
      },
    ],
  },
  {
    id: 'permission',
    label: k('settings_group_permission'),
    minLevel: 2,
    sections: [
      {
        id: 'default_permissions',
        label: k('settings_default_permissions'),
        description: k('settings_default_permissions_description'),
        icon: mdiShieldCheckOutline,
        minLevel: 2,
        available: true,
      },
      {
        id: 'folder',
        label: k('settings_folder'),
        description: k('settings_folder_description'),
        icon: mdiFolderKeyOutline,
        minLevel: 2,
        available: true,
      },
      {
        id: 'resource',
        label: k('settings_resource'),
        description: k('settings_resource_description'),
        icon: mdiFormatListBulleted,
        minLevel: 2,
        available: true,
      },
    ],
  },
  {
    id: 'integration',
    label: k('settings_group_integration'),
    minLevel: 2,
    sections: [
      {
        id: 'incoming',
        label: k('settings_incoming'),
        description: k('settings_incoming_description'),
        icon: mdiWebhook,
        minLevel: 2,
        available: true,
      },
      {
        id: 'outgoing',
        label: k('settings_outgoing'),
        description: k('settings_outgoing_description'),
        icon: mdiSend,
        minLevel: 2,
        available: true,
      },
    ],
  },
  {
    id: 'system',
    label: k('settings_group_system'),
    minLevel: 2,
    sections: [
      {
        id: 'information',
        label: k('settings_information'),
        description: k('settings_information_description'),
        icon: mdiInformationOutline,
        minLevel: 2,
        available: true,
      },
      {
        id: 'license',
        label: k('settings_license'),
        description: k('settings_license_description'),
        icon: mdiCertificateOutline,
        minLevel: 2,
        available: true,
      },
      {
        id: 'network',
        label: k('settings_network'),
        description: k('settings_network_description'),
        icon: mdiLanConnect,
        minLevel: 2,
        available: true,
      },
      {
        id: 'policy',
        label: k('settings_policy'),
        description: k('settings_policy_description'),
        icon: mdiFileDocumentOutline,
        minLevel: 2,
        available: true,
      },
      {
        id: 'log',
        label: k('settings_log'),
        description: k('settings_log_description'),
        icon: mdiTextBoxSearchOutline,
        minLevel: 2,
        available: true,
      },
      {
        id: 'audit',
        label: k('settings_audit'),
        description: k('settings_audit_description'),
        icon: mdiShieldSearch,
        minLevel: 2,
        available: true,
      },
    ],
  },
];

/** The groups and sections a user of this roleLevel sees. */
export function visibleGroups(roleLevel: number): SettingGroup[] {
  return SETTING_GROUPS.filter((group) => roleLevel >= group.minLevel).map((group) => ({
    ...group,
    sections: group.sections.filter((section) => roleLevel >= section.minLevel),
  }));
}

/** The section to show: the remembered one if this user can open it, else the first that can be opened. */
export function initialSection(remembered: SettingId | null, roleLevel: number): SettingSection {
  const sections = visibleGroups(roleLevel).flatMap((group) => group.sections);
  const open = sections.filter((section) => section.available);
  return open.find((section) => section.id === remembered) ?? (open[0] as SettingSection);
}
