import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import { nodeTarget } from '../files/file-audit.js';
import { settleWhenSent } from '../transfer/download-gate.js';
import type { DownloadService } from '../transfer/download.service.js';
import { sendFile } from '../transfer/transfer.routes.js';
import type { TransferRepo } from '../transfer/transfer.repo.js';
import { storeMissing } from '../transfer/upload.service.js';
import type { BlobStores } from '../../storage/blob-stores.js';
import type { VersionsService } from './versions.service.js';

/**
 * Serves a version's bytes as the file's own download is served: DOWNLOAD on the file, the
 * secure-folder gate (an approval, counted as a download of the file), ETag and Range, and a
 * `file.download_version` record before the first byte. The version's blob is pinned while
 * the answer runs, so a prune meanwhile lets the download finish (the collector waits for the pin).
 */
export class VersionDownloads {
  constructor(
    private readonly versions: VersionsService,
    private readonly downloads: DownloadService,
    private readonly transfers: TransferRepo,
    private readonly stores: BlobStores,
    private readonly audit: AuditRecorder,
  ) {}

  async send(request: FastifyRequest, reply: FastifyReply, path: string, id: string): Promise<void> {
    const user = request.user!;
    const node = await this.versions.file(user, path, 'DOWNLOAD');
    const version = id === node.id ? undefined : await this.versions.versionOf(node, id);
    settleWhenSent(request, reply, await this.downloads.admit(user, [node]), (error) => request.log.error({ err: error }, 'version download not settled'));
    if (!version) {
      const file = await this.downloads.file(node);
      await sendFile(request, reply, file, {
        disposition: 'attachment',
        type: 'application/octet-stream',
        beforeStart: () => this.downloads.recordTransfer(user, 'file.download', [{ node, path }]),
      });
      return;
    }
    const size = Number(version.size);
    const pin = await this.transfers.pinBlob(version.backend, version.content_hash, size);
    const release = () =>
      void this.transfers.unpinBlob(pin).catch((error: unknown) => request.log.warn({ err: error }, 'version download pin left for the repair'));
    try {
      // Pruned between the look-up and the pin: its blob may be gone already.
      await this.versions.versionOf(node, id);
      const store = await this.stores.forBackend(version.backend);
      if (!store) throw storeMissing();
      const file = {
        node,
        size,
        etag: `"${version.content_hash}"`,
        lastModified: new Date(version.written_at).toUTCString(),
        open: (range?: { start: number; end: number }) => store.get(version.blob_key, range),
      };
      const record = () => this.audit.recordOrThrow({ action: 'file.download_version', target: nodeTarget(node, path), params: { version: version.id, size } });
      reply.raw.once('close', release);
      await sendFile(request, reply, file, { disposition: 'attachment', type: 'application/octet-stream', beforeStart: record });
    } catch (error) {
      reply.raw.off('close', release);
      release();
      throw error;
    }
  }
}
