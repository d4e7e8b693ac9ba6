import { useCallback, useState } from 'react';

/**
 * Values of a form's text fields and which of them the user has left at least once.
 * `onEdit` runs on every change (to drop a server error that no longer applies).
 */
export function useFieldState<Name extends string>(initial: Record<Name, string>, onEdit?: () => void) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<Name, boolean>>>({});

  const bind = useCallback(
    (name: Name) => ({
      name,
      value: values[name],
      onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
        const { value } = event.target;
        setValues((current) => ({ ...current, [name]: value }));
        onEdit?.();
      },
      onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
    }),
    [values, onEdit],
  );

  return { values, touched, bind };
}
