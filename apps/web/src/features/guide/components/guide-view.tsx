import { mdiDownload, mdiOpenInNew } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { useLocale } from '../../../i18n/use-locale';
import { guidePdf, type GuideDocument } from '../lib/guide-documents';
import { BrowserPdfFrame, browserShowsPdf } from './browser-pdf-frame';

// pdf.js is large: it loads only where the browser has no PDF viewer of its own (phones).
const PdfDocument = lazy(() => import('../../../components/pdf-document'));

/** The PDF bytes of a document, served as a static file of the web build. */
async function fetchPdf(url: string, signal: AbortSignal): Promise<Blob> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.blob();
}

function Loading() {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: 320, display: 'grid', placeItems: 'center' }}>
      <CircularProgress aria-label={t('loading')} />
    </Box>
  );
}

/** The user guide or the manual of the page's language, in a PDF viewer (the browser's, else pdf.js), with download and open buttons. */
export function GuideView({ document }: { document: GuideDocument }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { url, fileName } = guidePdf(document, locale);
  const pdf = useQuery({ queryKey: ['guide', url], queryFn: ({ signal }) => fetchPdf(url, signal), staleTime: Infinity });
  const [broken, setBroken] = useState(false);
  useEffect(() => setBroken(false), [url]);
  const onError = useCallback(() => setBroken(true), []);
  const title = document === 'guide' ? t('nav_guide') : t('nav_manual');

  useEffect(() => {
    window.document.title = `${title} · ${t('app_title')}`;
  }, [title, t]);

  return (
    <Box component="section" sx={{ maxWidth: 1100, mx: 'auto', width: '100%' }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
            {title}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {document === 'guide' ? t('guide_description') : t('manual_description')}
          </Typography>
        </Box>
        <Button component="a" href={url} target="_blank" rel="noopener" startIcon={<MdiIcon path={mdiOpenInNew} fontSize="small" />}>
          {t('guide_open_pdf')}
        </Button>
        <Button component="a" href={url} download={fileName} variant="contained" startIcon={<MdiIcon path={mdiDownload} fontSize="small" />}>
          {t('download')}
        </Button>
      </Box>
      <Paper variant="outlined" sx={{ borderRadius: 2, bgcolor: 'action.hover', minHeight: 320 }}>
        {pdf.isError || broken ? (
          <Box sx={{ p: 3 }}>
            <Alert severity="error">{t('guide_load_failed')}</Alert>
          </Box>
        ) : pdf.data && browserShowsPdf() ? (
          <BrowserPdfFrame blob={pdf.data} title={title} />
        ) : pdf.data ? (
          <Suspense fallback={<Loading />}>
            <PdfDocument blob={pdf.data} onError={onError} />
          </Suspense>
        ) : (
          <Loading />
        )}
      </Paper>
    </Box>
  );
}
