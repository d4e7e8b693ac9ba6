import { UPLOAD_ID_PATTERN, uploadChunkResponseSchema, uploadStatusSchema } from '@bogwan/contracts';
import { UploadError, type ChunkAnswer, type ChunkRequest, type UploadTransport } from './types';

/** How the transport gets a bearer token, and a fresh one after a refused session. */
export interface TokenSource {
  token(): Promise<string | null>;
  /** Called after a 401 `unauthorized_message`; answers a new token or null when the session ended. */
  refresh(staleToken: string): Promise<string | null>;
  /** Sent as the multipart `userId` field (the server reads the user from the token). */
  userId(): string;
}

function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
  } catch {
    // not JSON
  }
  return 'request_error_message';
}

interface RawAnswer {
  status: number;
  body: string;
}

/** One XHR; XHR (unlike fetch) reports upload progress. */
function xhr(
  method: string,
  url: string,
  token: string | null,
  body: FormData | string | null,
  onProgress: ((sent: number) => void) | null,
  signal: AbortSignal,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new UploadError(0, 'request_error_message'));
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.setRequestHeader('Accept', 'application/json');
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    if (typeof body === 'string') request.setRequestHeader('Content-Type', 'application/json');
    if (onProgress) request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () => resolve({ status: request.status, body: request.responseText });
    request.onerror = () => reject(new UploadError(0, 'request_error_message'));
    request.ontimeout = () => reject(new UploadError(0, 'request_error_message'));
    request.onabort = () => reject(new UploadError(0, 'request_error_message'));
    signal.addEventListener('abort', () => request.abort(), { once: true });
    request.send(body);
  });
}

/** Sends a request with the session token; a refused session gets one refresh and one replay. */
async function authorised(tokens: TokenSource, send: (token: string | null) => Promise<RawAnswer>): Promise<RawAnswer> {
  const token = await tokens.token();
  let answer = await send(token);
  if (answer.status === 401 && token && messageOf(answer.body) === 'unauthorized_message') {
    const next = await tokens.refresh(token).catch(() => null);
    if (next) answer = await send(next);
  }
  if (answer.status >= 200 && answer.status < 300) return answer;
  throw new UploadError(answer.status, messageOf(answer.body));
}

/** The browser transport: `GET /api/file/upload/status` and `POST /api/file/upload` (multipart). */
export function createHttpTransport(tokens: TokenSource, base = '/api'): UploadTransport {
  return {
    async status(query, signal) {
      const params = new URLSearchParams({ path: query.path, fileName: query.fileName, fileSize: String(query.fileSize) });
      if (sendable(query.uploadId)) params.set('uploadId', query.uploadId);
      try {
        const answer = await authorised(tokens, (token) => xhr('GET', `${base}/file/upload/status?${params}`, token, null, null, signal));
        return uploadStatusSchema.parse(JSON.parse(answer.body)).received;
      } catch (error) {
        // No session for this file yet: nothing received.
        if (error instanceof UploadError && error.status === 404) return [];
        if (error instanceof UploadError) throw error;
        throw new UploadError(0, 'request_error_message');
      }
    },

    async cancel(query) {
      const body = JSON.stringify({
        path: query.path,
        fileName: query.fileName,
        fileSize: query.fileSize,
        ...(sendable(query.uploadId) ? { uploadId: query.uploadId } : {}),
      });
      await authorised(tokens, (token) => xhr('POST', `${base}/file/upload/cancel`, token, body, null, new AbortController().signal));
    },

    async sendChunk(chunk: ChunkRequest, onProgress, signal): Promise<ChunkAnswer> {
      const build = () => {
        // Fields first and the file last, so the server knows where the bytes go before they arrive.
        const form = new FormData();
        form.append('fileName', chunk.fileName);
        form.append('path', chunk.path);
        form.append('userId', tokens.userId());
        form.append('chunkIndex', String(chunk.chunkIndex));
        form.append('totalChunks', String(chunk.totalChunks));
        form.append('isLastChunk', String(chunk.isLastChunk));
        form.append('fileSize', String(chunk.fileSize));
        if (sendable(chunk.uploadId)) form.append('uploadId', chunk.uploadId);
        if (chunk.onConflict) form.append('onConflict', chunk.onConflict);
        form.append('file', chunk.data, chunk.fileName);
        return form;
      };
      const params = new URLSearchParams({ fileName: chunk.fileName, userId: tokens.userId(), chunkIndex: String(chunk.chunkIndex) });
      const answer = await authorised(tokens, (token) =>
        xhr('POST', `${base}/file/upload?${params}`, token, build(), (sent) => onProgress(Math.min(sent, chunk.data.size)), signal),
      );
      try {
        return { complete: uploadChunkResponseSchema.parse(JSON.parse(answer.body)).complete };
      } catch {
        return { complete: chunk.isLastChunk };
      }
    },
  };
}

/** An upload id the server takes (one it would refuse is left out: the upload is then keyed by name and size). */
function sendable(uploadId: string | undefined): uploadId is string {
  return uploadId !== undefined && UPLOAD_ID_PATTERN.test(uploadId);
}
