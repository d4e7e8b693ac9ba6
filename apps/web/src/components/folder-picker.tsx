import { createContext, useContext, type ComponentType } from 'react';

/** A dialog that lets the user pick a folder of the storage (and create one on the way). */
export interface FolderPickerProps {
  open: boolean;
  onPick: (path: string) => void;
  onClose: () => void;
}

/**
 * The folder picker, provided by the app (the storage feature's tree dialog) to features that
 * need a folder chosen without knowing the storage browser (a feature never imports another).
 */
export const FolderPickerContext = createContext<ComponentType<FolderPickerProps> | null>(null);

/** The provided folder picker; a missing provider is a wiring mistake, so it throws. */
export function useFolderPicker(): ComponentType<FolderPickerProps> {
  const picker = useContext(FolderPickerContext);
  if (!picker) throw new Error('No FolderPickerContext provider: wrap the app in Providers');
  return picker;
}
