import type { Readable } from 'node:stream';
import type { AuditAction, PermissionType } from '@bogwan/contracts';
import type { FastifyBaseLogger } from 'fastify';
import yazl from 'yazl';
import { AppError } from '../../errors.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import { actionRefusedBy, nodeTarget } from '../files/file-audit.js';
import type { BlobStore, ByteRange } from '../../storage/blob-store.js';
import type { BlobStores } from '../../storage/blob-stores.js';
import type { FileAccess, FileTree, NodeRow } from '../files/ports.js';
import type { UserRow } from '../users/users.repo.js';
import type { DownloadGate, DownloadTicket } from './download-gate.js';
import { storeMissing } from './upload.service.js';

/** A file's bytes and what the HTTP answer says about them. */
export interface FileBody {
  node: NodeRow;
  size: number;
  etag: string;
  lastModified: string;
  open: (range?: ByteRange) => Promise<Readable>;
}

/** A zip being streamed, and its file name. */
export interface ZipBody {
  name: string;
  stream: Readable;
}

/**
 * Reads files for download and preview, and streams folders and selections as zips.
 * Every path passes the one permission check first.
 */
export class DownloadService {
  constructor(
    private readonly stores: BlobStores,
    private readonly tree: () => FileTree,
    private readonly access: () => FileAccess,
    private readonly audit: AuditRecorder,
    private readonly log: FastifyBaseLogger,
    /** The check every byte route passes after the permission check (secure folders); required. */
    private readonly gate: DownloadGate,
  ) {}

  /** The node at `path` when the user may do `permission` there. */
  require(user: UserRow, path: string, permission: PermissionType): Promise<NodeRow> {
    return this.access().require(user, path, permission);
  }

  /**
   * Lets the bytes of `nodes` go to `user`, or refuses; the ticket is settled when the answer
   * ends. A refusal (a secure folder without an approved request) is recorded as a refused
   * `permission` (DOWNLOAD, or PREVIEW for the preview's bytes) on each node.
   */
  async admit(user: UserRow, nodes: NodeRow[], permission: PermissionType = 'DOWNLOAD'): Promise<DownloadTicket> {
    try {
      return await this.gate.admit(user, nodes);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 403) {
        for (const node of nodes) {
          const target = nodeTarget(
            node,
            await this.tree()
              .pathOf(node)
              .catch(() => node.name),
          );
          await this.audit.record({ action: actionRefusedBy(permission), outcome: 'refused', reason: error.messageKey, target, params: { permission } });
        }
      }
      throw error;
    }
  }

  /** A file ready to be served (its node must be a file). */
  async file(node: NodeRow): Promise<FileBody> {
    if (!node.blob_key || !node.content_hash) throw new AppError(404, 'not_found_message');
    const store = await this.storeOf(node);
    const key = node.blob_key;
    return {
      node,
      size: node.size,
      etag: `"${node.content_hash}"`,
      lastModified: new Date(node.mtime).toUTCString(),
      // The whole file as a range of its known size: the store reads it in pieces no larger than it.
      open: (range) => store.get(key, range ?? (node.size > 0 ? { start: 0, end: node.size - 1 } : undefined)),
    };
  }

  /**
   * Records bytes about to leave, before the first one is sent, and notes the nodes in the
   * user's Recent: `file.view` for a preview, `file.download` for a file, `file.download_zip`
   * for a folder or a selection (one record per item chosen, with the zip's name). Without a
   * record nothing is sent: a failed audit write fails the answer (500).
   */
  async recordTransfer(
    user: UserRow | null,
    action: Extract<AuditAction, 'file.view' | 'file.download' | 'file.download_zip' | 'share.download'>,
    items: { node: NodeRow; path: string }[],
    params: Record<string, string | number> = {},
  ): Promise<void> {
    for (const { node, path } of items) {
      await this.audit.recordOrThrow({ action, target: nodeTarget(node, path), params: { ...(node.folder === 1 ? {} : { size: node.size }), ...params } });
    }
    if (user) for (const { node } of items) await this.tree().touch(user.id, node);
  }

  /**
   * A zip of folders and files, streamed: entries are added as the tree is walked and
   * each file's bytes are opened only when the zip reaches it. Names are UTF-8 with the
   * language-encoding flag (yazl sets it), folders kept as `folder/` entries. Entries
   * are stored, not deflated: most large files are compressed already, and storing keeps
   * the zip as fast as the disk.
   *
   * `items` were admitted by the caller's route. Below them the zip holds only what `user`
   * (for a share link: its creator) may both READ and DOWNLOAD, checked one folder's
   * children at a time; a folder left out is left out with everything under it. So are the
   * `withheld` nodes (for a share link: locked folders its approval does not cover).
   */
  zip(name: string, items: NodeRow[], user: UserRow, withheld: ReadonlySet<string> = new Set()): ZipBody {
    const zip = new yazl.ZipFile();
    const taken = new Set<string>();
    const add = async () => {
      for (const item of items) {
        const top = uniqueName(item.name, taken);
        if (item.folder !== 1) {
          await this.addFile(zip, item, top);
          continue;
        }
        zip.addEmptyDirectory(top, { mtime: new Date(item.mtime) });
        for await (const entry of this.tree().walk(item, (children) =>
          this.readableAndDownloadable(
            user,
            children.filter((child) => !withheld.has(child.id)),
          ),
        )) {
          const entryName = `${top}/${entry.relativePath}`;
          if (entry.node.folder === 1) zip.addEmptyDirectory(entryName, { mtime: new Date(entry.node.mtime) });
          else await this.addFile(zip, entry.node, entryName);
        }
      }
      zip.end();
    };
    add().catch((error: unknown) => {
      this.log.error({ err: error }, 'zip download failed');
      (zip.outputStream as unknown as Readable).destroy(error as Error);
    });
    return { name, stream: zip.outputStream as unknown as Readable };
  }

  /** The nodes on which `user` holds READ and DOWNLOAD, in their order. */
  private async readableAndDownloadable(user: UserRow, nodes: NodeRow[]): Promise<NodeRow[]> {
    if (nodes.length === 0) return nodes;
    const readable = await this.access().filter(user, nodes, 'READ');
    return readable.length === 0 ? readable : this.access().filter(user, readable, 'DOWNLOAD');
  }

  private async addFile(zip: yazl.ZipFile, node: NodeRow, entryName: string): Promise<void> {
    const store = await this.storeOf(node);
    const key = node.blob_key;
    zip.addReadStreamLazy(entryName, { mtime: new Date(node.mtime), compress: false, size: node.size }, (callback) => {
      if (!key) {
        callback(new Error(`file ${node.id} has no blob`), undefined as unknown as Readable);
        return;
      }
      store.get(key).then(
        (stream) => callback(null, stream),
        (error: Error) => callback(error, undefined as unknown as Readable),
      );
    });
  }

  private async storeOf(node: NodeRow): Promise<BlobStore> {
    const store = await this.stores.forBackend(node.backend);
    if (!store) throw storeMissing();
    return store;
  }
}

/** `name`, or `name (2)`, `name (3)`, … when a selection holds two items of one name. */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) {
    const dot = name.lastIndexOf('.');
    candidate = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
  }
  taken.add(candidate);
  return candidate;
}
