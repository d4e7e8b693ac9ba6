import { lazy, useEffect, useState } from 'react';
import { Deferred } from '../../../components/deferred';
import { setConflictResolver, type ConflictChoice, type UploadConflict } from '../lib/conflicts';

export interface ConflictQuestion {
  target: string;
  conflicts: UploadConflict[];
  answer: (choices: Map<string, ConflictChoice> | null) => void;
}

// The dialog's code arrives with the first drop that has taken names.
const UploadConflictDialog = lazy(() => import('./upload-conflict-dialog').then((m) => ({ default: m.UploadConflictDialog })));

/** Mounted once in the layout: answers the upload service's question about taken names through the conflict dialog. */
export function UploadConflictHost() {
  const [question, setQuestion] = useState<ConflictQuestion | null>(null);

  useEffect(() => setConflictResolver((target, conflicts) => new Promise((answer) => setQuestion({ target, conflicts, answer }))), []);

  return (
    <Deferred open={question !== null}>
      <UploadConflictDialog question={question} onAnswered={() => setQuestion(null)} />
    </Deferred>
  );
}
