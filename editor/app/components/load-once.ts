/**
 * A part of the dashboard loaded on first use (ADR 131, 132): `load()` starts the import once and
 * every caller shares it; after a failure (offline for a moment) the next call tries again.
 * `loaded()` is the part once it has arrived, so a component mounted later renders it at once.
 */
import { createElement, lazy, useState, type ComponentType } from "react";

export function loadOnce<T>(importer: () => Promise<T>): { load(): Promise<T>; loaded(): T | null } {
  let value: T | null = null;
  let loading: Promise<T> | null = null;
  return {
    load: () =>
      (loading ??= importer().then(
        (v) => (value = v),
        (err: unknown) => {
          loading = null;
          throw err;
        },
      )),
    loaded: () => value,
  };
}

/**
 * A component loaded on first use, like React's `lazy`, that renders at once when its module has
 * already arrived: React suspends on a lazy component's first render even then, and shows it up to
 * 300 ms after its module came. `load()` starts the import before the component is first drawn.
 * Which of the two it draws is chosen once, when it mounts. A module can arrive while React is in
 * the middle of drawing it through `lazy` (a transition draws in slices); drawn again as the arrived
 * module, the part would be another component to React, which would throw it away with what the
 * owner had typed in it (seen as a password field emptying itself on the Security tab).
 */
export function lazyPart(importer: () => Promise<{ default: ComponentType }>): { Component: ComponentType; load(): Promise<unknown> } {
  const part = loadOnce(importer);
  const Lazy = lazy(part.load);
  function Component() {
    const [type] = useState<ComponentType>(() => part.loaded()?.default ?? Lazy);
    return createElement(type);
  }
  return { Component, load: part.load };
}
