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
  mdiShieldLockOutline,
  mdiTextBoxSearchOutline,
  mdiWebhook,
} from '@mdi/js';
import { k, type TranslationKey } from '../../../i18n/keys';
import type { SettingId } from '../../../state/settings';

/** Sections that exist now; the rest of the spec's tree is shown but cannot be opened yet. */
export type AvailableSection = 'notification' | 'security' | 'activity' | 'license';

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

function later(id: SettingId, label: TranslationKey, icon: string, minLevel: 1 | 2): SettingSection {
  return { id, label, icon, minLevel, available: false };
}

/** The spec's section tree: Private for everyone, the rest for roleLevel 2 and above. */
export const SETTING_GROUPS: SettingGroup[] = [
  {
    id: 'private',
    label: k('settings_group_private'),
    minLevel: 1,
    sections: [
      later('profile', k('settings_profile'), mdiAccountCircleOutline, 1),
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
      later('delete', k('settings_delete'), mdiAccountRemoveOutline, 1),
    ],
  },
  {
    id: 'user',
    label: k('settings_group_user'),
    minLevel: 2,
    sections: [
      later('account', k('settings_account'), mdiAccountMultipleOutline, 2),
      later('group', k('settings_group'), mdiAccountGroupOutline, 2),
    ],
  },
  {
    id: 'storage',
    label: k('settings_group_storage'),
    minLevel: 2,
    sections: [
      later('server', k('settings_server'), mdiServer, 2),
      later('cloud', k('settings_cloud'), mdiCloudOutline, 2),
      later('volume', k('settings_volume'), mdiChartDonut, 2),
    ],
  },
  {
    id: 'permission',
    label: k('settings_group_permission'),
    minLevel: 2,
    sections: [
      later('default_permissions', k('settings_default_permissions'), mdiShieldCheckOutline, 2),
      later('folder', k('settings_folder'), mdiFolderKeyOutline, 2),
      later('resource', k('settings_resource'), mdiFormatListBulleted, 2),
    ],
  },
  {
    id: 'integration',
    label: k('settings_group_integration'),
    minLevel: 2,
    sections: [later('incoming', k('settings_incoming'), mdiWebhook, 2)],
  },
  {
    id: 'system',
    label: k('settings_group_system'),
    minLevel: 2,
    sections: [
      later('information', k('settings_information'), mdiInformationOutline, 2),
      {
        id: 'license',
        label: k('settings_license'),
        description: k('settings_license_description'),
        icon: mdiCertificateOutline,
        minLevel: 2,
        available: true,
      },
      later('network', k('settings_network'), mdiLanConnect, 2),
      later('policy', k('settings_policy'), mdiFileDocumentOutline, 2),
      later('log', k('settings_log'), mdiTextBoxSearchOutline, 2),
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
