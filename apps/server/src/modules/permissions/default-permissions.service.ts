import { userRowPermissions, type PermissionType, type Setting } from '@bogwan/contracts';
import { forbidden } from '../../errors.js';
import { CLOUD_BUCKET_SETTING, type BlobStores } from '../../storage/blob-stores.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import { MASTER_LEVEL, PERMISSION_SETTING, type AccessService } from '../files/access.service.js';
import type { Caller } from '../files/files.service.js';
import type { SettingsRepo } from '../settings/settings.repo.js';

/** The id the spec's Setting list item carries (there is one set of settings). */
const SETTING_ID = 'settings';

/** The default permissions (`permission.user`, `permission.admin`) and the Setting the web reads. */
export class DefaultPermissionsService {
  constructor(
    private readonly access: AccessService,
    private readonly settings: SettingsRepo,
    private readonly stores: () => BlobStores,
    private readonly audit: AuditRecorder,
  ) {}

  async settingList(): Promise<Setting[]> {
    return [
      {
        _id: SETTING_ID,
        permission: await this.access.defaults(),
        server: { path: await this.stores().serverPath() },
        cloud: { bucket: (await this.settings.get<string>(CLOUD_BUCKET_SETTING)) ?? null },
      },
    ];
  }

  /**
   * Changes the rows that were sent. The admin row is MASTER's alone: an ADMIN widening it would
   * widen their own rights. The user row never holds DELETE or SETTING (SETTING would make
   * every USER a security manager); they are dropped like unknown names.
   */
  async update(caller: Caller, change: { user?: PermissionType[]; admin?: PermissionType[] }): Promise<void> {
    if (change.admin !== undefined && caller.user.role_level < MASTER_LEVEL) throw forbidden();
    const current = await this.access.defaults();
    const next = { user: change.user ? userRowPermissions(change.user) : current.user, admin: change.admin ?? current.admin };
    const rows = (['user', 'admin'] as const).filter((row) => change[row] !== undefined && next[row].join() !== current[row].join());
    if (rows.length === 0) return;
    await this.settings.set(PERMISSION_SETTING, next);
    const params = Object.fromEntries(
      rows.flatMap((row) => [
        [`${row}From`, current[row].join(',')],
        [`${row}To`, next[row].join(',')],
      ]),
    );
    await this.audit.record({ action: 'permission.default_change', target: { kind: 'setting', id: PERMISSION_SETTING }, params });
  }
}
