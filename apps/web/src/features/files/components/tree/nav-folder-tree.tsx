import { useTranslation } from 'react-i18next';
import { useDropMove } from '../../hooks/use-drop-move';
import { FolderTree } from './folder-tree';

export interface NavFolderTreeProps {
  /** The folder open in the storage browser, or null elsewhere. */
  currentPath: string | null;
  onNavigate: (path: string) => void;
  /** Files from the desktop dropped on a folder: upload there (read `dataTransfer` at once). */
  onDropFiles: (path: string, dataTransfer: DataTransfer) => void;
}

/**
 * The folder tree of the navigation. Its folders can be dragged; items dropped on a folder
 * move there after `confirm_move_dir_message` (see useDropMove); the browser then opens that folder.
 */
export function NavFolderTree({ currentPath, onNavigate, onDropFiles }: NavFolderTreeProps) {
  const { t } = useTranslation();
  const { onDropItems, dialog } = useDropMove(onNavigate);
  return (
    <>
      <FolderTree
        label={t('folder_tree')}
        selectedPath={currentPath}
        revealPath={currentPath}
        onSelect={onNavigate}
        onDropItems={onDropItems}
        onDropFiles={onDropFiles}
        draggableFolders
      />
      {dialog}
    </>
  );
}
