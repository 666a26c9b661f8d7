/** A small deterministic random generator for generated test inputs, so a failure names a seed that rebuilds it. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}
