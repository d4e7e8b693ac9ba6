import { fileCategory } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSharePreview } from '../api/public-share';

/** Text shown at most in a text preview. */
const TEXT_LIMIT = 1024 * 1024;

type Loaded = { kind: 'image' | 'video' | 'pdf'; url: string } | { kind: 'text'; text: string } | { kind: 'failed' };

/** A file of a share link shown in the page: images, videos, PDFs and text; anything else is for downloading. */
export function SharePreviewDialog({
  shareKey,
  shareToken,
  file,
  onClose,
}: {
  shareKey: string;
  shareToken: string | null;
  file: { path: string; name: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    if (!file) return;
    setLoaded(null);
    const controller = new AbortController();
    let url: string | null = null;
    fetchSharePreview(shareKey, shareToken, file.path, controller.signal)
      .then(async (blob) => {
        const category = fileCategory(file.name);
        if (category === 'image' || category === 'video' || category === 'pdf') {
          url = URL.createObjectURL(blob);
          setLoaded({ kind: category, url });
        } else {
          setLoaded({ kind: 'text', text: await blob.slice(0, TEXT_LIMIT).text() });
        }
      })
      .catch(() => {
        if (!controller.signal.aborted) setLoaded({ kind: 'failed' });
      });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [file, shareKey, shareToken]);

  return (
    <Dialog open={file !== null} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle sx={{ wordBreak: 'break-all' }}>{file?.name}</DialogTitle>
      <DialogContent dividers sx={{ minHeight: 240 }}>
        {loaded === null && <CircularProgress aria-label={t('loading')} />}
        {loaded?.kind === 'image' && <Box component="img" src={loaded.url} alt={file?.name} sx={{ maxWidth: '100%' }} />}
        {loaded?.kind === 'video' && <Box component="video" src={loaded.url} controls sx={{ maxWidth: '100%' }} />}
        {loaded?.kind === 'pdf' && <Box component="iframe" title={file?.name} src={loaded.url} sx={{ width: '100%', height: '70vh', border: 0 }} />}
        {loaded?.kind === 'text' && (
          <Box component="pre" sx={{ m: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontSize: 13 }}>
            {loaded.text}
          </Box>
        )}
        {loaded?.kind === 'failed' && <Typography sx={{ color: 'text.secondary' }}>{t('preview_failed')}</Typography>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
