import type { Notification } from '@bogwan/contracts';
import { Fragment, createElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { parseMarkup, type MarkupNode } from '../lib/markup';
import { noteParts } from '../lib/note-text';

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

/**
 * A notification in the reader's language, its emphasis drawn as React elements (never as
 * HTML). A message stored before keys existed shows its own sanitised text.
 */
export function NotificationMessage({ note }: { note: Pick<Notification, 'key' | 'params'> }) {
  const { t } = useTranslation();
  if (note.key === 'note_legacy') return <>{render(parseMarkup(String(note.params.text ?? '')))}</>;
  return <>{noteParts(t, note).map((part, index) => (part.bold ? <b key={index}>{part.text}</b> : <Fragment key={index}>{part.text}</Fragment>))}</>;
}
