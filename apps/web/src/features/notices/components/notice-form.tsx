import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useCreateNotice } from '../api/create-notice';

const TITLE_MAX = 200;
const CONTENT_MAX = 20_000;

/** Writing a notice (administrators): title and content are both required. */
export function NoticeForm() {
  const { t } = useTranslation();
  const create = useCreateNotice();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const ready = title.trim() !== '' && content.trim() !== '' && !create.isPending;

  return (
    <Box
      component="form"
      aria-label={t('notice_write')}
      onSubmit={(event) => {
        event.preventDefault();
        if (!ready) return;
        create.mutate(
          { title: title.trim(), content: content.trim() },
          {
            onSuccess: () => {
              setTitle('');
              setContent('');
              notify(t('notice_created'));
            },
            onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
          },
        );
      }}
      sx={{ display: 'grid', gap: 1.25, p: 2 }}
    >
      <TextField
        size="small"
        label={t('notice_title')}
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        slotProps={{ htmlInput: { maxLength: TITLE_MAX } }}
        required
      />
      <TextField
        size="small"
        label={t('notice_content')}
        value={content}
        onChange={(event) => setContent(event.target.value)}
        multiline
        minRows={3}
        maxRows={8}
        slotProps={{ htmlInput: { maxLength: CONTENT_MAX } }}
        required
      />
      <Button type="submit" variant="contained" disabled={!ready} sx={{ justifySelf: 'end' }}>
        {t('notice_post')}
      </Button>
    </Box>
  );
}
