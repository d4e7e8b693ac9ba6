import Box from '@mui/material/Box';
import { useEffect } from 'react';
import { Spinner } from '../../../../components/spinner';
import { useObjectUrl, usePreviewBlob } from './use-preview-blob';
import type { ViewerProps } from './viewer-props';

/**
 * Images, SVG included, drawn through <img>: an SVG shown as an image runs no script and
 * loads nothing, whatever it holds.
 */
export function ImageViewer({ path, name, onError }: ViewerProps) {
  const { blob, error } = usePreviewBlob(path);
  const svg = name.toLowerCase().endsWith('.svg');
  const url = useObjectUrl(blob, svg ? 'image/svg+xml' : undefined);
  useEffect(() => {
    if (error) onError(error);
  }, [error, onError]);
  if (!url) return <Spinner />;
  return (
    <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Box
        component="img"
        src={url}
        alt={name}
        onError={() => onError('preview_failed')}
        sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain', bgcolor: svg ? '#fff' : undefined, borderRadius: 1 }}
      />
    </Box>
  );
}
