import Box from '@mui/material/Box';
import { useEffect } from 'react';
import { Spinner } from './spinner';
import { useObjectUrl, usePreviewBlob } from './use-preview-blob';
import type { ViewerProps } from './viewer-props';

/**
 * Video through an object URL of the fetched bytes: the token stays in the Authorization
 * header, and an object URL seeks freely. Large videos are capped (see PREVIEW_LIMITS).
 */
export function VideoViewer({ path, name, onError }: ViewerProps) {
  const { blob, error } = usePreviewBlob(path);
  const url = useObjectUrl(blob);
  useEffect(() => {
    if (error) onError(error);
  }, [error, onError]);
  if (!url) return <Spinner />;
  return (
    <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Box component="video" src={url} controls autoPlay={false} aria-label={name} sx={{ maxWidth: '100%', maxHeight: '100%' }} />
    </Box>
  );
}
