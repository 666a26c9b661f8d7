/**
 * Components whose markup react-dom/server renders once per variant and renderer/markup.ts reuses
 * (ADR 088). A template component is an ordinary React component (the live preview renders it with
 * React like any other); marking it only tells the bulk path which of its props are holes.
 *
 * How its props are read, by their value at each use:
 * - a non-empty string is a hole: the template has a marker there, filled per use with the value
 *   escaped exactly as React escapes it. The component may put it into markup, alone or joined
 *   to other text, and must not look at it otherwise (no trim, no test, no lookup);
 * - a string named in `variants`, an empty string, a number, a boolean, null or undefined picks the
 *   variant: the component may branch on it freely;
 * - anything else (elements, arrays) is a slot: rendered on its own and put in place as markup.
 *   The component may only place it ({children}), never inspect it.
 * Nothing here imports react-dom: the editor bundles the page components for the browser.
 */
import type { ReactNode } from "react";

export const TEMPLATE = Symbol.for("plinth.template");

export interface TemplateSpec {
  /** String props that pick the variant instead of being holes. */
  variants: ReadonlySet<string>;
  /** Compiled variants (renderer/markup.ts keeps them here) and how many there are. */
  cache: { next: Map<number, unknown> };
  variantCount: number;
  /** The prop names of the last use, in order, with their numbers and whether each picks the variant (renderer/markup.ts). */
  seen: { names: string[]; ids: number[]; variants: boolean[] };
}

export type TemplateComponent<P> = ((props: P) => ReactNode) & { [TEMPLATE]: TemplateSpec; displayName?: string };

/** Mark `component` as a template component; `variants` lists the string props it branches on. */
export function template<P extends object>(component: (props: P) => ReactNode, variants: readonly (keyof P & string)[] = []): TemplateComponent<P> {
  const spec: TemplateSpec = {
    variants: new Set<string>(variants),
    cache: { next: new Map<number, unknown>() },
    variantCount: 0,
    seen: { names: [], ids: [], variants: [] },
  };
  return Object.assign(component, { [TEMPLATE]: spec });
}

export function templateSpecOf(type: unknown): TemplateSpec | undefined {
  return typeof type === "function" ? (type as Partial<TemplateComponent<unknown>>)[TEMPLATE] : undefined;
}
