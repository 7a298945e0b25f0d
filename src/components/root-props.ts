import type { ForwardedRef } from 'react';

/**
 * The props every component puts on the element that takes the caller's props (its root; for
 * `TaskProgress`, its progressbar): the forwarded ref, the caller's other props, the component's
 * class (`block`) followed by the caller's `className`, if any, and the state in `data-state`.
 * Spread first on that element, before the component's own attributes.
 */
export function rootProps<Element, Props extends { className?: string | undefined }>(
  ref: ForwardedRef<Element>,
  block: string,
  state: string,
  { className, ...props }: Props,
) {
  // `className` is taken out first, so it keeps its place after the caller's other props.
  return {
    ref,
    ...props,
    className: className ? `${block} ${className}` : block,
    'data-state': state,
  };
}
