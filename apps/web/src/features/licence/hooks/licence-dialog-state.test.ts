import { beforeEach, describe, expect, it } from 'vitest';
import { allowLicenceDialog, closeLicenceDialog, dismissLicenceDialog, licenceDialogState, openLicenceDialog } from './licence-dialog-state';

describe('licence dialog state', () => {
  beforeEach(() => closeLicenceDialog());

  it('opens on license_required and closes when the licence is good', () => {
    openLicenceDialog();
    expect(licenceDialogState()).toBe('open');
    closeLicenceDialog();
    expect(licenceDialogState()).toBe('closed');
  });

  it('stays shut after the close button, however often the poll answers 403, until a new session', () => {
    openLicenceDialog();
    dismissLicenceDialog();
    openLicenceDialog();
    expect(licenceDialogState()).toBe('dismissed');
    allowLicenceDialog();
    expect(licenceDialogState()).toBe('closed');
    openLicenceDialog();
    expect(licenceDialogState()).toBe('open');
  });

  it('leaves an open dialog open when a session starts', () => {
    openLicenceDialog();
    allowLicenceDialog();
    expect(licenceDialogState()).toBe('open');
  });
});
