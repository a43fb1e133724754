import { useRef } from 'react';
import type { FieldValues, Path, RegisterOptions, UseFormRegister, UseFormRegisterReturn } from 'react-hook-form';

/**
 * react-hook-form's `register`, except that leaving a field checks it only once it was changed, or
 * after a submit attempt (ADR 0042): a keyboard user tabbing through an empty form meets no errors.
 * The forms keep `mode: 'onBlur'`; a changed field is checked on blur exactly as before.
 */
export const useRegisterAfterChange = <T extends FieldValues>(register: UseFormRegister<T>, submitted: boolean) => {
  const changed = useRef(new Set<string>());
  return <N extends Path<T>>(name: N, options?: RegisterOptions<T, N>): UseFormRegisterReturn<N> => {
    const field = register(name, options);
    return {
      ...field,
      onChange: (event) => {
        changed.current.add(name);
        return field.onChange(event);
      },
      onBlur: (event) => (submitted || changed.current.has(name) ? field.onBlur(event) : Promise.resolve()),
    };
  };
};
