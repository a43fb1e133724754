import { useCallback, useMemo, useRef } from 'react';

/**
 * Focus by name through refs, not `querySelector` (ADR 0056): each field hands its element over with
 * `fieldRef(name)`; `focusField(name)` focuses it, or, when its step is still loading (lazy), as soon as
 * the step mounts it. Callbacks are kept per name, so a re-render does not re-register a field.
 */
export const useFieldFocus = <Name extends string>() => {
  const elements = useRef(new Map<Name, HTMLElement>());
  const callbacks = useRef(new Map<Name, (element: HTMLElement | null) => void>());
  const wanted = useRef<Name | null>(null);

  const fieldRef = useCallback((name: Name) => {
    let callback = callbacks.current.get(name);
    if (!callback) {
      callback = (element: HTMLElement | null) => {
        if (!element) {
          elements.current.delete(name);
          return;
        }
        elements.current.set(name, element);
        if (wanted.current === name) {
          wanted.current = null;
          element.focus();
        }
      };
      callbacks.current.set(name, callback);
    }
    return callback;
  }, []);

  const focusField = useCallback((name: Name) => {
    const element = elements.current.get(name);
    if (element?.isConnected) {
      wanted.current = null;
      element.focus();
    } else {
      wanted.current = name;
    }
  }, []);

  return useMemo(() => ({ fieldRef, focusField }), [fieldRef, focusField]);
};
