import { visuallyHidden } from '@mui/utils';
import Box from '@mui/material/Box';
import { createStore, useStore } from '../state/store';

type Politeness = 'polite' | 'assertive';

const messages = createStore<Record<Politeness, string>>({ polite: '', assertive: '' });

/**
 * Says a message (already translated) to screen readers: polite for news (an upload
 * finished), assertive for errors. The regions are always in the page, so a change of
 * their text is announced; the same message twice in a row is announced twice.
 */
export function announce(message: string, politeness: Politeness = 'polite'): void {
  const current = messages.get();
  // A trailing no-break space makes a repeat differ from the text already there.
  const text = current[politeness] === message ? `${message}\u00a0` : message;
  messages.set({ ...current, [politeness]: text });
}

/** The page's two live regions; mounted once (by the notifier). */
export function LiveRegion() {
  const { polite, assertive } = useStore(messages);
  return (
    <>
      <Box role="status" aria-live="polite" aria-atomic="true" sx={visuallyHidden} data-testid="live-polite">
        {polite}
      </Box>
      <Box role="alert" aria-live="assertive" aria-atomic="true" sx={visuallyHidden} data-testid="live-assertive">
        {assertive}
      </Box>
    </>
  );
}
