import { TOAST_DURATION_MS } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { createStore, useStore } from '../state/store';
import { LiveRegion } from './live-region';

export type NotifySeverity = 'success' | 'info' | 'warning' | 'error';

interface Toast {
  id: number;
  message: string;
  severity: NotifySeverity;
}

const toastStore = createStore<Toast[]>([]);
let lastId = 0;

/**
 * Shows a short message (already translated) at the top centre for 2 s. A message that
 * is already showing or waiting is not added again.
 */
export function notify(message: string, severity: NotifySeverity = 'success'): void {
  const queue = toastStore.get();
  if (queue.some((toast) => toast.message === message)) return;
  lastId += 1;
  toastStore.set([...queue, { id: lastId, message, severity }]);
}

function dismiss(id: number): void {
  toastStore.set(toastStore.get().filter((toast) => toast.id !== id));
}

/** Renders the message queue of `notify`, one at a time; mounted once around the app. */
export function Notifier() {
  const queue = useStore(toastStore);
  const current = queue[0];
  return (
    <>
      <LiveRegion />
      <Snackbar
        key={current?.id}
        open={current !== undefined}
        autoHideDuration={TOAST_DURATION_MS}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway' && current) dismiss(current.id);
        }}
      >
        {current ? (
          <Alert
            role={current.severity === 'error' ? 'alert' : 'status'}
            variant="filled"
            severity={current.severity}
            onClose={() => dismiss(current.id)}
            sx={{ minWidth: 280, boxShadow: 3 }}
          >
            {current.message}
          </Alert>
        ) : undefined}
      </Snackbar>
    </>
  );
}
