import { useEffect, useState } from 'react';
import { fetchPreview } from '../../api/fetch-preview';

export interface PreviewBlobState {
  blob: Blob | null;
  error: unknown;
}

/** Fetches a file's preview bytes once per path; cancels when the viewer goes away. */
export function usePreviewBlob(path: string, firstBytes?: number): PreviewBlobState {
  const [state, setState] = useState<PreviewBlobState>({ blob: null, error: null });
  useEffect(() => {
    const controller = new AbortController();
    setState({ blob: null, error: null });
    fetchPreview(path, { signal: controller.signal, firstBytes }).then(
      (blob) => setState({ blob, error: null }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ blob: null, error });
      },
    );
    return () => controller.abort();
  }, [path, firstBytes]);
  return state;
}

/** An object URL for a blob, revoked when it changes or the viewer goes away. */
export function useObjectUrl(blob: Blob | null, type?: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return setUrl(null);
    const typed = type && blob.type !== type ? new Blob([blob], { type }) : blob;
    const next = URL.createObjectURL(typed);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob, type]);
  return url;
}
