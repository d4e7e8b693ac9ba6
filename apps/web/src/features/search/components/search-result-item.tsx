import type { SearchResult } from '@bogwan/contracts';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { FileIcon } from '../../../components/file-icon';
import { folderOf } from '../lib/to-entry';
import { Highlight } from './highlight';

/** One match: icon, name, and below it the passage that matched (content) or the folder it lies in (name). */
export function SearchResultItem({ result, term, onOpen, dense }: { result: SearchResult; term: string; onOpen: () => void; dense?: boolean }) {
  return (
    <ListItemButton onClick={onOpen} dense={dense} data-testid="search-result" data-match={result.match} data-path={result.path}>
      <ListItemIcon sx={{ minWidth: 36 }}>
        <FileIcon name={result.name} folder={result.folder} fontSize="small" />
      </ListItemIcon>
      <ListItemText
        primary={<Highlight text={result.name} term={result.match === 'name' ? term : ''} />}
        secondary={result.match === 'content' ? <Highlight text={result.snippet} term={term} /> : folderOf(result.path)}
        slotProps={{
          primary: { noWrap: true },
          secondary: { sx: { display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', wordBreak: 'break-all' } },
        }}
      />
    </ListItemButton>
  );
}
