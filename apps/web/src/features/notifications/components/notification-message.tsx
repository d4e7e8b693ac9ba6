import { Fragment, createElement, type ReactNode } from 'react';
import { parseMarkup, type MarkupNode } from '../lib/markup';

function render(nodes: MarkupNode[]): ReactNode[] {
  return nodes.map((node, index) =>
    typeof node === 'string' ? (
      <Fragment key={index}>{node}</Fragment>
    ) : (
      // Only the tags of ALLOWED_TAGS reach this point, and never with attributes.
      createElement(node.tag, { key: index }, ...(node.tag === 'br' ? [] : render(node.children)))
    ),
  );
}

/** A notification message with its emphasis, drawn as React elements (never as HTML). */
export function NotificationMessage({ message }: { message: string }) {
  return <>{render(parseMarkup(message))}</>;
}
