/**
 * A part of the dashboard loaded on first use (ADR 131, 132): `load()` starts the import once and
 * every caller shares it; after a failure (offline for a moment) the next call tries again.
 * `loaded()` is the part once it has arrived, so a component mounted later renders it at once.
 */
import { createElement, lazy, type ComponentType } from "react";

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
 */
export function lazyPart(importer: () => Promise<{ default: ComponentType }>): { Component: ComponentType; load(): Promise<unknown> } {
  const part = loadOnce(importer);
  const Lazy = lazy(part.load);
  function Component() {
    return createElement(part.loaded()?.default ?? Lazy);
  }
  return { Component, load: part.load };
}
