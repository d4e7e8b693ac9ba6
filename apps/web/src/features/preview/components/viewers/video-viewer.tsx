import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getPreviewStreamUrl } from '../../api/get-preview-ticket';
import { VIDEO_FETCH_LIMIT } from '../preview-kind';
import { Spinner } from '../../../../components/spinner';
import { useObjectUrl, usePreviewBlob } from './use-preview-blob';
import type { ViewerProps } from './viewer-props';

type Source = { kind: 'pending' } | { kind: 'stream'; url: string } | { kind: 'fetch' };

/**
 * Video streamed with ranges from a ticket URL (a media element cannot send the
 * Authorization header; the ticket stands for this session and this file), so playback
 * starts at once and seeks anywhere in files of any size. Where every download counts
 * (secure folders) there is no ticket: the file is fetched once, up to VIDEO_FETCH_LIMIT.
 */
export function VideoViewer({ path, name, size, onError }: ViewerProps) {
  const [source, setSource] = useState<Source>({ kind: 'pending' });
  useEffect(() => {
    const controller = new AbortController();
    setSource({ kind: 'pending' });
    getPreviewStreamUrl(path, controller.signal).then(
      (url) => setSource(url ? { kind: 'stream', url } : { kind: 'fetch' }),
      (error: unknown) => {
        if (!controller.signal.aborted) onError(error);
      },
    );
    return () => controller.abort();
  }, [path, onError]);

  if (source.kind === 'pending') return <Spinner />;
  if (source.kind === 'stream') return <VideoPlayer url={source.url} name={name} />;
  return <FetchedVideo path={path} name={name} size={size} onError={onError} />;
}

function FetchedVideo(props: ViewerProps) {
  const { t } = useTranslation();
  if (props.size <= VIDEO_FETCH_LIMIT) return <FetchedVideoPlayer {...props} />;
  return (
    <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 3 }}>
      <Alert severity="info" variant="filled">
        {t('preview_too_large')}
      </Alert>
    </Box>
  );
}

function FetchedVideoPlayer({ path, name, onError }: ViewerProps) {
  const { blob, error } = usePreviewBlob(path);
  const url = useObjectUrl(blob);
  useEffect(() => {
    if (error) onError(error);
  }, [error, onError]);
  if (!url) return <Spinner />;
  return <VideoPlayer url={url} name={name} />;
}

function VideoPlayer({ url, name }: { url: string; name: string }) {
  return (
    <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Box component="video" src={url} controls autoPlay={false} preload="metadata" aria-label={name} sx={{ maxWidth: '100%', maxHeight: '100%' }} />
    </Box>
  );
}
