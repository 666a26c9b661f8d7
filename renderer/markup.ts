/**
 * renderMarkup(node): the same HTML as react-dom/server's renderToStaticMarkup(node), for trees of
 * template components (renderer/components/template.ts), at a fraction of the cost (ADR 088).
 *
 * React renders each template component once per variant, with a marker in place of each hole and
 * slot; the result is split at the markers. Every later use of that variant joins the pieces with
 * its own hole values, escaped as React escapes text and attributes, and its slots, rendered the
 * same way. So every byte of markup still comes from react-dom/server, and only the joining is ours.
 * Whatever is not a template component (host elements, components of other kinds) and the rare value
 * React would treat specially goes to React itself, whole.
 */
import { createElement, Fragment, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { templateSpecOf, type TemplateSpec } from "./components/template.ts";

/** React's escapeTextForBrowser, for text and attribute values alike: the same five characters. */
const NEEDS_ESCAPE = /["&'<>]/;
const ESCAPES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };
export function escapeHtml(s: string): string {
  return NEEDS_ESCAPE.test(s) ? s.replace(/["&'<>]/g, (c) => ESCAPES[c]!) : s;
}

/**
 * A value at the start of a URL attribute that React might rewrite (its javascript: URL guard allows
 * control characters and spaces before the scheme), or that leaves the scheme to whatever follows it
 * (nothing but control characters and spaces). Such an element goes to React whole. So a value that
 * does not go to React starts with a character that no javascript: URL starts with, and nothing
 * after it in the attribute can make one.
 */
const MAYBE_SCRIPT_URL = /^[\u0000-\u001f ]*(?:j|$)/i;
/** Attributes whose value React checks for a javascript: URL. */
const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "xlink:href"]);
/** Inside a start tag, within a quoted attribute value: the attribute's name and its value so far. */
const OPEN_ATTRIBUTE = /\s([^\s"'>/=]+)="([^"]*)$/;
/** The start of a marker, within markup. */
const MARKER_START = / [\uE000\uE002]/;

// Markers: private-use characters React never escapes, padded with spaces so that a component which
// trims a hole (or otherwise rewrites it) is caught when its template is compiled.
const HOLE = "\uE000";
const SLOT = "\uE002";
const END = "\uE001";
// The second compilation's markers end in "&", which React escapes wherever it escapes text: a marker
// that comes back with a bare "&" was placed where React does not escape (script, style, inner HTML).
const MARKER = / \uE000(\d+)(?:&amp;)?\uE001 | \uE002(\d+)(?:&amp;)?\uE001 /g;
const MARKER_CHAR = /[\uE000-\uE002]/;
const UNESCAPED_MARKER = /[\uE000\uE002]\d+&\uE001/;
const WRAP_OPEN = '<div data-template="">';
const WRAP_CLOSE = "</div>";

/**
 * The markup cut from around the markers is held by V8 as two-byte text, like the marked string it
 * came from; a page joined from such pieces is two-byte too and costs several times as much to
 * encode when written. Pieces that fit in Latin-1 are copied into one-byte strings.
 */
function oneByte(part: string): string {
  return /[^\u0000-\u00ff]/.test(part) ? part : Buffer.from(part, "latin1").toString("latin1");
}

interface Compiled {
  /** Static markup around the references: parts.length === refs.length + 1. */
  parts: string[];
  /** 2 * i for hole i, 2 * j + 1 for slot j, in document order. */
  refs: number[];
  /** Holes that open a URL attribute's value. */
  urlHoles: number[];
}

/** Variants kept per component; past this a variant is rendered by React each time (a bug to fix). */
const MAX_VARIANTS = 256;

/** Counters for tests and the benchmark: how often React rendered, and what for. */
export const markupStats = { compiled: 0, fallbacks: 0 };

// Read once: a bundle (the republish worker's) reaches an import of a CommonJS package through a
// getter, on every use.
const FRAGMENT: unknown = Fragment;
// React 19's element tag (what isValidElement checks), read directly on this hot path.
const ELEMENT = Symbol.for("react.transitional.element");
const isElement = (v: unknown): v is ReactElement => typeof v === "object" && v !== null && (v as { $$typeof?: unknown }).$$typeof === ELEMENT;

export function renderMarkup(node: ReactNode): string {
  const out: string[] = [];
  renderMarkupInto(node, out);
  return out.join("");
}

/**
 * Appends `node`'s markup to `out`, piece by piece. Joining the pieces once at the end makes one flat
 * string; joining them as they come makes a rope of hundreds of pieces, which costs more to flatten
 * when the page is written than the page cost to assemble.
 */
export function renderMarkupInto(node: ReactNode, out: string[]): void {
  if (node === null || node === undefined || typeof node === "boolean") return;
  if (typeof node === "string") out.push(escapeHtml(node));
  else if (typeof node === "number" || typeof node === "bigint") out.push(`${node}`);
  else if (Array.isArray(node)) for (let i = 0; i < node.length; i++) renderMarkupInto(node[i] as ReactNode, out);
  else if (isElement(node)) {
    const { type } = node;
    const props = node.props as Record<string, unknown>;
    const spec = templateSpecOf(type);
    if (type === FRAGMENT) renderMarkupInto(props.children as ReactNode, out);
    else if (spec) fill(node, spec, props, out);
    else if (typeof type === "function" && !(type.prototype && type.prototype.isReactComponent)) {
      renderMarkupInto((type as (p: unknown) => ReactNode)(props), out);
    } else out.push(react(node));
  } else out.push(react(node));
}

function react(node: ReactNode): string {
  markupStats.fallbacks += 1;
  return renderToStaticMarkup(node as ReactElement);
}

/**
 * Variants are found by walking a trie, one step per prop (and one more for a variant's value),
 * keyed by small numbers: no key string is built and hashed for every use.
 */
interface VariantNode {
  next: Map<number, VariantNode>;
  compiled?: Compiled;
}
const HOLE_PROP = 0;
const EMPTY = 1;
const NULL = 2;
const UNDEFINED = 3;
const TRUE = 4;
const FALSE = 5;
const SLOT_PROP = 6;
const VALUE = 7;
/**
 * Prop names and variant values by number, bounded like the variants they describe. String and
 * number values have maps of their own but share the count, so 1 and "1" get different numbers.
 */
const nameIds = new Map<string, number>();
const stringIds = new Map<string, number>();
const numberIds = new Map<number, number>();
const MAX_IDS = 4096;
let idCount = 0;
function idIn<K>(map: Map<K, number>, x: K): number {
  let id = map.get(x);
  if (id === undefined) {
    if (idCount >= MAX_IDS) return -1;
    id = ++idCount;
    map.set(x, id);
  }
  return id;
}

function step(node: VariantNode, k: number): VariantNode {
  let n = node.next.get(k);
  if (n === undefined) {
    n = { next: new Map() };
    node.next.set(k, n);
  }
  return n;
}

function fill(element: ReactElement, spec: TemplateSpec, props: Record<string, unknown>, out: string[]): void {
  let node = spec.cache as unknown as VariantNode;
  const holes: string[] = [];
  const slots: ReactNode[] = [];
  // A template is almost always used from one place, with its props in one order: the names seen
  // last time, in order, with their numbers, spare a lookup per prop.
  const seen = spec.seen;
  let i = 0;
  for (const name in props) {
    const v = props[name];
    let nameId: number;
    let isVariant: boolean;
    if (seen.names[i] === name) {
      nameId = seen.ids[i]!;
      isVariant = seen.variants[i]!;
    } else {
      nameId = idIn(nameIds, name);
      if (nameId < 0) return void out.push(react(element));
      isVariant = spec.variants.has(name);
      seen.names[i] = name;
      seen.ids[i] = nameId;
      seen.variants[i] = isVariant;
    }
    i++;
    let kind: number;
    let value: string | number | null = null;
    switch (typeof v) {
      case "string":
        if (v === "") kind = EMPTY;
        else if (isVariant) {
          kind = VALUE;
          value = v;
        } else {
          kind = HOLE_PROP;
          holes.push(v);
        }
        break;
      case "number":
        kind = VALUE;
        value = v;
        break;
      case "boolean":
        kind = v ? TRUE : FALSE;
        break;
      case "undefined":
        kind = UNDEFINED;
        break;
      case "object":
        if (v === null) kind = NULL;
        else if (Array.isArray(v) || isElement(v)) {
          kind = SLOT_PROP;
          slots.push(v as ReactNode);
        } else return void out.push(react(element));
        break;
      default:
        return void out.push(react(element));
    }
    node = step(node, nameId * 8 + kind);
    if (value !== null) {
      // Numbers and strings apart: 1 and "1" pick different variants.
      const valueId = typeof value === "number" ? idIn(numberIds, value) : idIn(stringIds, value);
      if (valueId < 0) return void out.push(react(element));
      node = step(node, -valueId);
    }
  }
  let compiled = node.compiled;
  if (compiled === undefined) {
    compiled = compile(element, props, holes.length, slots.length, spec);
    if (spec.variantCount < MAX_VARIANTS) {
      node.compiled = compiled;
      spec.variantCount += 1;
    }
  }
  for (let i = 0; i < compiled.urlHoles.length; i++) if (MAYBE_SCRIPT_URL.test(holes[compiled.urlHoles[i]!]!)) return void out.push(react(element));
  for (let i = 0; i < holes.length; i++) holes[i] = escapeHtml(holes[i]!);
  const { parts, refs } = compiled;
  out.push(parts[0]!);
  for (let k = 0; k < refs.length; k++) {
    const r = refs[k]!;
    if (r & 1) renderMarkupInto(slots[r >> 1], out);
    else out.push(holes[r >> 1]!);
    out.push(parts[k + 1]!);
  }
}

/** Where markup ends inside a start tag: the attribute it is in, or null between tags. */
function openAttribute(before: string, name: string): { attribute: string; value: string } | null {
  if (before.lastIndexOf("<") < before.lastIndexOf(">")) return null;
  const m = OPEN_ATTRIBUTE.exec(before.slice(before.lastIndexOf("<")));
  if (!m) throw new Error(`template component ${name} places a prop inside a tag other than as an attribute's quoted value`);
  return { attribute: m[1]!.toLowerCase(), value: m[2]! };
}

/**
 * Whether a hole placed after `before` starts a URL attribute's value, and so needs the check a
 * value gets when it is filled. One later in a URL attribute is safe only after a start that cannot
 * begin a javascript: URL: a hole that passed that check, or fixed text such as "tel:" or "/".
 */
function placedInUrl(before: string, name: string): boolean {
  const open = openAttribute(before, name);
  if (!open || !URL_ATTRIBUTES.has(open.attribute)) return false;
  if (open.value === "") return true;
  const markerAt = open.value.search(MARKER_START);
  const fixed = markerAt < 0 ? open.value : open.value.slice(0, markerAt);
  if (fixed === "") return false;
  if (MAYBE_SCRIPT_URL.test(fixed)) {
    throw new Error(`template component ${name} places a prop in ${open.attribute} after text that could begin a javascript: URL`);
  }
  return false;
}

/** A slot's markup belongs between tags: inside a tag React would have rendered it as text. */
function placedInText(before: string, name: string): void {
  if (openAttribute(before, name)) throw new Error(`template component ${name} places an element or array inside an attribute`);
}

/**
 * React renders the variant twice, with markers of different lengths and digits: a component that
 * only places its holes gives the same pieces both times, while one that rewrote a hole (trimmed,
 * encoded, cut it) or branched on its text leaves a difference, and is refused before it is used.
 */
function compile(element: ReactElement, props: Record<string, unknown>, holeCount: number, slotCount: number, spec: TemplateSpec): Compiled {
  markupStats.compiled += 1;
  const type = element.type as ((p: unknown) => ReactNode) & { displayName?: string };
  const name = type.displayName ?? type.name ?? "anonymous";
  const first = compileWith(type, name, props, holeCount, slotCount, spec, 0);
  const second = compileWith(type, name, props, holeCount, slotCount, spec, SECOND_OFFSET);
  if (first.parts.length !== second.parts.length || first.parts.some((p, i) => p !== second.parts[i]) || first.refs.some((r, i) => r !== second.refs[i])) {
    throw rewrote(name);
  }
  return { parts: first.parts.map(oneByte), refs: first.refs, urlHoles: first.urlHoles };
}

const rewrote = (name: string) =>
  new Error(`template component ${name} rewrote one of its string props, or branched on one; only place them, or list them in variants`);

const SECOND_OFFSET = 1_000_000;
/** The second markers are also much longer, so a branch on a hole's length shows. */
const digits = (n: number, offset: number) => (offset ? `${String(n).padStart(48, "0")}&` : String(n));

function compileWith(
  type: (p: unknown) => ReactNode,
  name: string,
  props: Record<string, unknown>,
  holeCount: number,
  slotCount: number,
  spec: TemplateSpec,
  offset: number,
): Compiled {
  const marked: Record<string, unknown> = {};
  let h = 0;
  let s = 0;
  for (const key in props) {
    const v = props[key];
    if (typeof v === "string" && v !== "" && !spec.variants.has(key)) marked[key] = ` ${HOLE}${digits(offset + h++, offset)}${END} `;
    else if (typeof v === "object" && v !== null) marked[key] = ` ${SLOT}${digits(offset + s++, offset)}${END} `;
    else marked[key] = v;
  }
  if (h !== holeCount || s !== slotCount) throw new Error("template props changed while compiling");
  // Rendered inside an element of ours, so that anything React hoists out of place (an image
  // preload, a <title>, <meta> or <link>) shows up before it: a template's markup must stay put.
  const wrapped = renderToStaticMarkup(createElement("div", { "data-template": "" }, createElement(type, marked)));
  if (!wrapped.startsWith(WRAP_OPEN) || !wrapped.endsWith(WRAP_CLOSE)) {
    throw new Error(`template component ${name} renders something React moves out of place (an image outside <picture> without loading="lazy", a <title>, <meta> or <link>)`);
  }
  const html = wrapped.slice(WRAP_OPEN.length, -WRAP_CLOSE.length);
  const parts: string[] = [];
  const refs: number[] = [];
  const urlHoles = new Set<number>();
  let last = 0;
  for (const m of html.matchAll(MARKER)) {
    parts.push(html.slice(last, m.index));
    const hole = m[1] !== undefined;
    const i = Number(hole ? m[1] : m[2]) - offset;
    refs.push(hole ? 2 * i : 2 * i + 1);
    if (hole && placedInUrl(html.slice(0, m.index), name)) urlHoles.add(i);
    else if (!hole) placedInText(html.slice(0, m.index), name);
    last = m.index + m[0].length;
  }
  parts.push(html.slice(last));
  if (offset && UNESCAPED_MARKER.test(html)) throw new Error(`template component ${name} places a prop where React does not escape it (a script, a style or inner HTML)`);
  if (parts.some((p) => MARKER_CHAR.test(p)) || refs.some((r) => r < 0 || r >> 1 >= (r & 1 ? slotCount : holeCount))) {
    throw rewrote(name);
  }
  return { parts, refs, urlHoles: [...urlHoles] };
}
