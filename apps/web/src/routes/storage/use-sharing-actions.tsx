import type { FileEntry, RequestType } from '@bogwan/contracts';
import { mdiClipboardCheckOutline, mdiLinkVariantPlus, mdiLockOpenVariantOutline, mdiLockOutline, mdiShareVariantOutline } from '@mdi/js';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { Deferred } from '../../components/deferred';
import { notify } from '../../components/notify';
import type { ExtraItemAction } from '../../lib/item-actions';
import { refreshFiles } from '../../features/files/api/keys';
import { useLockFolder } from '../../features/requests/api/lock-folder';
import { useSecureStatus } from '../../features/requests/api/secure-status';
import { messageText } from '../../i18n/keys';

// The dialogs load their code when first opened.
const RequestDialog = lazy(() => import('../../features/requests/components/request-dialog').then((m) => ({ default: m.RequestDialog })));
const ShareDialog = lazy(() => import('../../features/shares/components/share-dialog').then((m) => ({ default: m.ShareDialog })));

/**
 * The storage browser's sharing actions: share link, lock and unlock a folder, and the
 * approval requests for what lies in a secure folder; with the dialogs they open.
 */
export function useSharingActions(folderPath: string): { actions: ExtraItemAction[]; dialogs: ReactNode } {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const secureFolder = useSecureStatus(folderPath === '/' ? null : folderPath).data?.secure ?? false;
  const lock = useLockFolder();
  const [sharing, setSharing] = useState<FileEntry | null>(null);
  const [requesting, setRequesting] = useState<{ type: RequestType; paths: string[] } | null>(null);

  const setLock = (entry: FileEntry, locked: boolean) =>
    lock.mutate(
      { path: entry.path, lock: locked },
      {
        onSuccess: () => {
          notify(locked ? t('lock_complete_message') : t('unlock_complete_message'), 'success');
          void refreshFiles(queryClient);
        },
        onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
      },
    );
  const single = (items: FileEntry[]) => items.length === 1;
  const secure = (items: FileEntry[]) => secureFolder || items.some((item) => item.lock);

  const actions: ExtraItemAction[] = [
    {
      id: 'share',
      label: t('share_create_title'),
      icon: mdiShareVariantOutline,
      visible: (items, p) => single(items) && p.includes('SHARE'),
      run: (items) => setSharing(items[0]!),
    },
    {
      id: 'lock',
      label: t('lock_folder'),
      icon: mdiLockOutline,
      visible: (items, p) => single(items) && items[0]!.folder && !items[0]!.lock && p.includes('LOCK'),
      run: (items) => setLock(items[0]!, true),
    },
    {
      id: 'unlock',
      label: t('unlock_folder'),
      icon: mdiLockOpenVariantOutline,
      visible: (items, p) => single(items) && items[0]!.folder && items[0]!.lock && p.includes('UNLOCK'),
      run: (items) => setLock(items[0]!, false),
    },
    {
      id: 'request-download',
      label: t('request_download_title'),
      icon: mdiClipboardCheckOutline,
      visible: (items, p) => secure(items) && p.includes('DOWNLOAD'),
      run: (items) => setRequesting({ type: 'download', paths: items.map((item) => item.path) }),
    },
    {
      id: 'request-share',
      label: t('request_share_title'),
      icon: mdiLinkVariantPlus,
      visible: (items, p) => single(items) && (secureFolder || (items[0]!.folder && items[0]!.lock)) && p.includes('SHARE'),
      run: (items) => setRequesting({ type: 'share', paths: [items[0]!.path] }),
    },
  ];

  const dialogs = (
    <>
      <Deferred open={sharing !== null}>
        <ShareDialog open={sharing !== null} item={sharing} onClose={() => setSharing(null)} />
      </Deferred>
      <Deferred open={requesting !== null}>
        <RequestDialog request={requesting} onClose={() => setRequesting(null)} />
      </Deferred>
    </>
  );
  return { actions, dialogs };
}
