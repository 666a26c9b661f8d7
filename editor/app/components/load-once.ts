/**
 * A part of the dashboard loaded on first use (ADR 131, 132): `load()` starts the import once and
 * every caller shares it; after a failure (offline for a moment) the next call tries again.
 * `loaded()` is the part once it has arrived, so a component mounted later renders it at once.
 */
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
