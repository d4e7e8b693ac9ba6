import { NAV_WIDTH_EXPANDED } from '@bogwan/contracts';
import Drawer from '@mui/material/Drawer';
import { useState } from 'react';
import { isNavCollapsed, setNavWidth, setPanel, useNavWidth, usePanels } from '../../../state/ui';
import { NavContent } from './nav-content';
import { NavResizeHandle } from './nav-resize-handle';
import { useNarrowScreen } from './use-narrow-screen';

const paperTestId = { 'data-testid': 'nav-drawer' } as Record<string, string>;

/** The left navigation: docked and resizable, or an overlay on narrow screens. */
export function NavDrawer() {
  const narrow = useNarrowScreen();
  const storedWidth = useNavWidth();
  const { mobileNavOpen } = usePanels();
  const [dragWidth, setDragWidth] = useState<number | null>(null);

  if (narrow) {
    const close = () => setPanel({ mobileNavOpen: false });
    return (
      <Drawer
        variant="temporary"
        open={mobileNavOpen}
        onClose={close}
        slotProps={{ paper: { ...paperTestId, sx: { width: NAV_WIDTH_EXPANDED, maxWidth: '85vw' } } }}
      >
        <NavContent collapsed={false} onNavigate={close} />
      </Drawer>
    );
  }

  const width = dragWidth ?? storedWidth;
  const dragging = dragWidth !== null;
  return (
    <Drawer
      variant="permanent"
      sx={{
        width,
        flexShrink: 0,
        transition: dragging ? 'none' : (theme) => theme.transitions.create('width', { duration: 150 }),
        '@media (prefers-reduced-motion: reduce)': { transition: 'none' },
      }}
      slotProps={{
        paper: {
          ...paperTestId,
          sx: {
            width,
            boxSizing: 'border-box',
            overflow: 'hidden',
            transition: dragging ? 'none' : (theme) => theme.transitions.create('width', { duration: 150 }),
            '@media (prefers-reduced-motion: reduce)': { transition: 'none' },
          },
        },
      }}
    >
      <NavContent collapsed={isNavCollapsed(width)} />
      <NavResizeHandle
        width={width}
        onDrag={setDragWidth}
        onRelease={(released) => {
          setDragWidth(null);
          setNavWidth(released);
        }}
      />
    </Drawer>
  );
}
