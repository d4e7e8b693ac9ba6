import type { TooltipProps } from '@mui/material/Tooltip';
import {
  cloneElement,
  useCallback,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type FocusEvent,
  type MouseEvent,
  type ReactElement,
  type Ref,
  type SyntheticEvent,
} from 'react';
import { flushSync } from 'react-dom';

type TooltipComponent = ComponentType<TooltipProps>;

// MUI's Tooltip (its popper and transition) is fetched once, by the first tooltip someone hovers
// or focuses; every tooltip mounted after that renders it straight away.
let loaded: TooltipComponent | null = null;
let loading: Promise<TooltipComponent> | null = null;
function loadTooltip(): Promise<TooltipComponent> {
  loading ??= import('@mui/material/Tooltip').then((module) => (loaded = module.default as TooltipComponent));
  return loading;
}

type ChildProps = {
  ref?: Ref<Element>;
  'aria-label'?: string;
  onMouseOver?: (event: MouseEvent<Element>) => void;
  onMouseLeave?: (event: MouseEvent<Element>) => void;
  onFocus?: (event: FocusEvent<Element>) => void;
  onBlur?: (event: FocusEvent<Element>) => void;
  onTouchStart?: (event: SyntheticEvent) => void;
  onPointerDown?: (event: SyntheticEvent) => void;
};

function setRef(ref: Ref<Element> | undefined, node: Element | null) {
  if (typeof ref === 'function') ref(node);
  else if (ref) (ref as { current: Element | null }).current = node;
}

function isFocusVisible(element: Element): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return false;
  }
}

/**
 * MUI's Tooltip with the same props, whose code arrives on the first hover or focus of any
 * tooltip. Until then the child gets the accessible name MUI gives it (a string `title` as
 * its aria-label, or as its `title` attribute with `describeChild`), and that first hover or
 * keyboard focus opens the tooltip as soon as its code is there.
 */
export function LazyTooltip(props: TooltipProps) {
  const { children, title, describeChild, open: openProp, onOpen, onClose } = props;
  const [Real, setReal] = useState<TooltipComponent | null>(() => loaded);
  const [open, setOpen] = useState(false);
  const node = useRef<Element | null>(null);
  // Wanted open: hovered or focused (with a visible focus) while the code was on its way.
  const wanted = useRef(false);
  const pressed = useRef(false);
  const swapPending = useRef<TooltipComponent | null>(null);
  const swapping = useRef(false);
  const refocus = useRef(false);
  const childProps = children.props as ChildProps;
  const childRef = childProps.ref;
  const ref = useCallback(
    (element: Element | null) => {
      // React lets go of the old element before taking it out of the page: it still knows its focus.
      if (element === null && swapping.current && node.current === document.activeElement) refocus.current = true;
      node.current = element;
      setRef(childRef, element);
    },
    [childRef],
  );

  // The child is mounted again inside the real Tooltip: give it back the focus it had.
  useEffect(() => {
    if (!Real || !swapping.current) return;
    swapping.current = false;
    if (refocus.current) {
      refocus.current = false;
      (node.current as HTMLElement | null)?.focus();
    }
  }, [Real]);

  const swap = (component: TooltipComponent) => {
    // Never while a button is held: the press and its release would land on two different elements.
    if (pressed.current) {
      swapPending.current = component;
      return;
    }
    swapping.current = true;
    // Rendered at once: a render left for later could fall between the press and the release
    // of a click that begins now, and a click whose press and release land on two elements is lost.
    flushSync(() => {
      if (wanted.current) setOpen(true);
      setReal(() => component);
    });
  };
  const want = () => {
    wanted.current = true;
    void loadTooltip().then(swap);
  };

  const controlled = openProp !== undefined;
  if (Real) {
    return (
      <Real
        {...props}
        open={controlled ? openProp : open}
        onOpen={(event) => {
          if (!controlled) setOpen(true);
          onOpen?.(event);
        }}
        onClose={(event) => {
          if (!controlled) setOpen(false);
          onClose?.(event);
        }}
      >
        {cloneElement(children, { ref } as ChildProps)}
      </Real>
    );
  }

  const named = typeof title === 'string' && title !== '';
  const extra: ChildProps & { title?: string } = {
    ref,
    onMouseOver: (event) => {
      childProps.onMouseOver?.(event);
      want();
    },
    onMouseLeave: (event) => {
      childProps.onMouseLeave?.(event);
      wanted.current = false;
    },
    onFocus: (event) => {
      childProps.onFocus?.(event);
      if (isFocusVisible(event.target)) want();
      else void loadTooltip().then(swap);
    },
    onBlur: (event) => {
      childProps.onBlur?.(event);
      wanted.current = false;
    },
    onTouchStart: (event) => {
      childProps.onTouchStart?.(event);
      void loadTooltip().then(swap);
    },
    onPointerDown: (event) => {
      childProps.onPointerDown?.(event);
      pressed.current = true;
      const release = () => {
        window.removeEventListener('pointerup', release, true);
        window.removeEventListener('pointercancel', release, true);
        // After the click that this release makes.
        setTimeout(() => {
          pressed.current = false;
          const pending = swapPending.current;
          swapPending.current = null;
          if (pending) swap(pending);
        });
      };
      window.addEventListener('pointerup', release, true);
      window.addEventListener('pointercancel', release, true);
    },
  };
  if (named && describeChild) extra.title = title;
  else if (named && childProps['aria-label'] === undefined) extra['aria-label'] = title;
  return cloneElement(children as ReactElement<ChildProps>, extra);
}
