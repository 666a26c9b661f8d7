/**
 * Reading rendered pages the way a browser does: parse5 builds the same tree a browser would, so
 * tests see what a visitor gets (an injected element or attribute would show up here).
 */
import { parse } from "parse5";

export interface El {
  tag: string;
  attrs: Record<string, string>;
  children: El[];
  parent: El | null;
  /** Text of this node and its descendants (for text nodes, the text). */
  text: string;
  isText: boolean;
}

interface P5Node {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: P5Node[];
  content?: P5Node;
  value?: string;
}

function convert(n: P5Node, parent: El | null): El {
  const el: El = {
    tag: n.tagName ?? n.nodeName,
    attrs: Object.fromEntries((n.attrs ?? []).map((a) => [a.name, a.value])),
    children: [],
    parent,
    text: n.nodeName === "#text" ? (n.value ?? "") : "",
    isText: n.nodeName === "#text",
  };
  for (const c of n.childNodes ?? []) {
    if (c.nodeName === "#comment") continue;
    el.children.push(convert(c, el));
  }
  if (!el.isText) el.text = el.children.map((c) => c.text).join("");
  return el;
}

export function parseHtml(html: string): El {
  return convert(parse(html) as unknown as P5Node, null);
}

export function* walk(el: El): Generator<El> {
  for (const c of el.children) {
    if (c.isText || c.tag.startsWith("#")) continue;
    yield c;
    yield* walk(c);
  }
}

export const all = (root: El, pred: (e: El) => boolean = () => true) => [...walk(root)].filter(pred);
export const byTag = (root: El, tag: string) => all(root, (e) => e.tag === tag);
export const byId = (root: El, id: string) => all(root, (e) => e.attrs.id === id)[0];
export const hasClass = (e: El, cls: string) => (e.attrs.class ?? "").split(/\s+/).includes(cls);
export const byClass = (root: El, cls: string) => all(root, (e) => hasClass(e, cls));
export const normText = (e: El) => e.text.replace(/\s+/g, " ").trim();
export function closest(e: El, pred: (e: El) => boolean): El | null {
  for (let p: El | null = e; p; p = p.parent) if (pred(p)) return p;
  return null;
}
/** The <meta> content for a name or property. */
export function meta(root: El, key: string): string | undefined {
  return all(root, (e) => e.tag === "meta" && (e.attrs.name === key || e.attrs.property === key))[0]?.attrs.content;
}
