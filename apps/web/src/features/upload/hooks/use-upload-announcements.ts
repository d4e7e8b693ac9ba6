import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { announce } from '../../../components/live-region';
import { messageText } from '../../../i18n/keys';
import type { UploadStatus } from '../engine/types';
import { uploadNews } from '../lib/upload-news';
import { useUploadTasks } from './use-upload-tasks';

/** Announces each finished upload (politely) and each failed one (at once) to screen readers. */
export function useUploadAnnouncements(): void {
  const { t } = useTranslation();
  const tasks = useUploadTasks();
  const statuses = useRef(new Map<string, UploadStatus>());
  useEffect(() => {
    for (const news of uploadNews(statuses.current, tasks)) {
      if (news.outcome === 'done') announce(t('upload_announce_done', { name: news.name }));
      else announce(t('upload_announce_failed', { name: news.name, reason: messageText(t, news.error ?? null) }), 'assertive');
    }
  }, [tasks, t]);
}
