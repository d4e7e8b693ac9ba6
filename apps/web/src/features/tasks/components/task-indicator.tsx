import { mdiProgressCheck } from '@mdi/js';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { setTaskPanel, taskPanelStore } from '../state/task-panel';

/** The top bar's task status: a spinner while anything runs; opens and closes the task panel. */
export function TaskIndicator({ runningCount }: { runningCount: number }) {
  const { t } = useTranslation();
  const running = runningCount > 0;
  const label = running ? t('task_panel_running', { count: runningCount }) : t('task_panel_title');
  return (
    <LazyTooltip title={label}>
      <IconButton
        aria-label={label}
        data-testid="task-indicator"
        data-running={running}
        onClick={() => {
          const { open } = taskPanelStore.get();
          setTaskPanel(open ? { open: false } : { open: true, expanded: true });
        }}
      >
        <Box sx={{ position: 'relative', display: 'grid', placeItems: 'center' }}>
          <Badge badgeContent={runningCount} color="primary" max={99}>
            <MdiIcon path={mdiProgressCheck} />
          </Badge>
          {running && <CircularProgress size={34} thickness={2.5} sx={{ position: 'absolute', pointerEvents: 'none' }} aria-hidden />}
        </Box>
      </IconButton>
    </LazyTooltip>
  );
}
