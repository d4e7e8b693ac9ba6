import { type RootFolder, type RootUsage, splitPath } from '@bogwan/contracts';
import { badRequest } from '../../errors.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { UserRow } from '../users/users.repo.js';
import type { AccessService } from './access.service.js';
import { nodeTarget } from './file-audit.js';
import type { FileTreeService } from './file-tree.js';
import type { Caller, FilesService } from './files.service.js';
import { toRootFolder, usageBreakdownOf } from './files.presenter.js';

type BackendFigures = { server: number; cloud: number };

/** Root folders: the list, usage, the dashboard's figures per backend, volume limits. */
export class RootsService {
  constructor(
    private readonly tree: FileTreeService,
    private readonly access: AccessService,
    private readonly files: FilesService,
    private readonly audit: AuditRecorder,
  ) {}

  async list(user: UserRow): Promise<RootFolder[]> {
    return (await this.files.visibleRoots(user)).map(toRootFolder);
  }

  /**
   * Usage of the root folders the user may read; `total` is the sum of their limits, or
   * null when one of them has none (unlimited).
   */
  async usage(user: UserRow): Promise<RootUsage> {
    const roots = (await this.files.visibleRoots(user)).map((node) => ({ ...toRootFolder(node), breakdown: usageBreakdownOf(node) }));
    return {
      roots: roots.map(({ name, path, usage, volume, breakdown }) => ({ name, path, usage, volume, breakdown })),
      used: roots.reduce((sum, r) => sum + r.usage, 0),
      total: roots.length > 0 && roots.every((r) => r.volume !== null) ? roots.reduce((sum, r) => sum + r.volume!, 0) : null,
    };
  }

  /**
   * Usage per backend over every root (trashed roots too: their bytes are still stored);
   * volume per backend is the sum of its live roots' limits, or null when one is unlimited.
   */
  async dashboard(): Promise<{ usage: BackendFigures; volume: { server: number | null; cloud: number | null } }> {
    const roots = await this.tree.repo.allRoots();
    const usage: BackendFigures = { server: 0, cloud: 0 };
    const volume: { server: number | null; cloud: number | null } = { server: null, cloud: null };
    for (const backend of ['server', 'cloud'] as const) {
      const own = roots.filter((r) => r.backend === backend);
      usage[backend] = own.reduce((sum, r) => sum + r.usage_bytes, 0);
      const live = own.filter((r) => r.trash_key === '');
      if (live.length > 0 && live.every((r) => r.volume_limit !== null)) volume[backend] = live.reduce((sum, r) => sum + r.volume_limit!, 0);
    }
    return { usage, volume };
  }

  /** Sets (bytes) or removes (null) a root folder's volume limit. A limit below the usage only stops further growth. */
  async setVolume(caller: Caller, path: string, volume: number | null): Promise<RootFolder> {
    if (splitPath(path)?.length !== 1) throw badRequest();
    const root = await this.access.require(caller.user, path, 'SETTING');
    await this.tree.repo.transaction(async (repo) => {
      await repo.update(root.id, { volume_limit: volume, updated_at: new Date().toISOString() });
      await this.audit.record({ action: 'file.volume', target: nodeTarget(root, path), params: { from: root.volume_limit, to: volume } }, repo.trx);
    });
    return toRootFolder({ ...root, volume_limit: volume });
  }
}
