import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form's resolver, loaded on the form's first check instead of with the page: the validation
 * library is not needed to show a first screen, only to check what was typed.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): Resolver<T> {
  let resolver: Promise<Resolver<T>> | null = null;
  return async (values, context, options) => {
    resolver ??= load();
    return (await resolver)(values, context, options);
  };
}
