import type { TaskType } from '@bogwan/contracts';
import { createStore, useStore } from '../../../state/store';

/** The task panel: shown or not, list expanded or folded to its header, selected tab. Not persisted. */
export interface TaskPanelState {
  open: boolean;
  expanded: boolean;
  tab: TaskType;
}

export const taskPanelStore = createStore<TaskPanelState>({ open: false, expanded: false, tab: 'upload' });

export function useTaskPanel(): TaskPanelState {
  return useStore(taskPanelStore);
}

export function setTaskPanel(patch: Partial<TaskPanelState>): void {
  taskPanelStore.set({ ...taskPanelStore.get(), ...patch });
}
