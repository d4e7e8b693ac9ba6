import { createStore, useStore } from '../../../state/store';

/**
 * The licence dialog: closed, open, or dismissed. Dismissed (the close button) keeps it
 * shut on the sign-in page while the poll keeps answering 403, so an administrator can
 * sign in; the next sign-in lets it open again.
 */
export type LicenceDialogState = 'closed' | 'open' | 'dismissed';

const store = createStore<LicenceDialogState>('closed');

/** The state now (outside React). */
export function licenceDialogState(): LicenceDialogState {
  return store.get();
}

export function useLicenceDialogState(): LicenceDialogState {
  return useStore(store);
}

/** A call answered 403 `license_required`. */
export function openLicenceDialog(): void {
  if (store.get() !== 'dismissed') store.set('open');
}

/** The licence is fine (saved, or the check says so). */
export function closeLicenceDialog(): void {
  store.set('closed');
}

export function dismissLicenceDialog(): void {
  store.set('dismissed');
}

/** A new session: the dialog may open again. */
export function allowLicenceDialog(): void {
  if (store.get() === 'dismissed') store.set('closed');
}
