/**
 * Long-form text as a safe subset of Markdown (ADR 126): paragraphs, headings, emphasis, strong,
 * ordered and unordered lists and links. CommonMark is parsed by mdast-util-from-markdown with raw
 * HTML switched off (tags stay text), then reduced to the small tree below: plain data the page
 * draws with React, so no string of markup is ever built from what the owner typed.
 *  - A link keeps its address only when safe-href accepts it (the one URL rule of links); otherwise
 *    its text shows, unlinked. Reference-style links and images show as their text.
 *  - `#` and `##` become the page's second level of headings, `###` and deeper its third and fourth:
 *    the page's name is its only first-level heading.
 *  - Code, quotes and rules keep their text as paragraphs; what nests deeper than MAX_DEPTH is text.
 * Runs on the server at render, and in the dashboard's live preview; never in the visitor's page.
 */
import type { Nodes, Parents, PhrasingContent, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { safeHref } from "./components/safe-href.ts";

export type LongFormInline = string | { t: "em" | "strong"; c: LongFormInline[] } | { t: "a"; href: string; c: LongFormInline[] } | { t: "br" };
export type LongFormBlock =
  | { t: "p"; c: LongFormInline[] }
  | { t: "h"; level: 2 | 3 | 4; c: LongFormInline[] }
  | { t: "ul" | "ol"; start: number; tight: boolean; items: LongFormBlock[][] };

/** Deeper nesting (lists in lists, emphasis in emphasis) is drawn as the plain text it holds. */
const MAX_DEPTH = 8;

/** Raw HTML is not Markdown here: `<b>` stays the four characters the owner typed. */
const NO_HTML = { disable: { null: ["htmlFlow", "htmlText"] } };

/** The plain text a node holds. */
function textOf(node: Nodes): string {
  if ("value" in node) return node.value;
  if (node.type === "image" || node.type === "imageReference") return node.alt ?? "";
  if (node.type === "break") return "\n";
  if (!("children" in node)) return "";
  let out = "";
  for (const child of (node as Parents).children) out += textOf(child);
  return out;
}

/** Adjacent strings joined, so the page draws one text node where the owner wrote one run of text. */
function push(out: LongFormInline[], item: LongFormInline): void {
  const last = out.length - 1;
  if (typeof item === "string" && typeof out[last] === "string") out[last] += item;
  else if (item !== "") out.push(item);
}

function inlines(nodes: readonly PhrasingContent[], depth: number): LongFormInline[] {
  const out: LongFormInline[] = [];
  for (const n of nodes) {
    if (depth >= MAX_DEPTH) {
      push(out, textOf(n));
      continue;
    }
    switch (n.type) {
      case "emphasis":
      case "strong":
        out.push({ t: n.type === "emphasis" ? "em" : "strong", c: inlines(n.children, depth + 1) });
        break;
      case "link": {
        const href = safeHref(n.url);
        const c = inlines(n.children, depth + 1);
        if (href) out.push({ t: "a", href, c });
        else for (const x of c) push(out, x);
        break;
      }
      case "break":
        out.push({ t: "br" });
        break;
      case "linkReference":
        for (const x of inlines(n.children, depth + 1)) push(out, x);
        break;
      default:
        push(out, textOf(n));
    }
  }
  return out;
}

function blocks(nodes: readonly RootContent[], depth: number, out: LongFormBlock[] = []): LongFormBlock[] {
  for (const n of nodes) {
    switch (n.type) {
      case "paragraph":
        out.push({ t: "p", c: inlines(n.children, depth + 1) });
        break;
      case "heading": {
        const c = inlines(n.children, depth + 1);
        if (c.length) out.push({ t: "h", level: n.depth <= 2 ? 2 : n.depth === 3 ? 3 : 4, c });
        break;
      }
      case "list":
        if (depth >= MAX_DEPTH) {
          out.push({ t: "p", c: [textOf(n)] });
          break;
        }
        out.push({
          t: n.ordered ? "ol" : "ul",
          start: n.ordered && typeof n.start === "number" ? n.start : 1,
          tight: !n.spread && n.children.every((i) => !i.spread),
          items: n.children.map((item) => blocks(item.children, depth + 1)),
        });
        break;
      case "blockquote":
        if (depth >= MAX_DEPTH) out.push({ t: "p", c: [textOf(n)] });
        else blocks(n.children, depth + 1, out);
        break;
      case "definition":
      case "thematicBreak":
        break;
      default: {
        // Code (fenced or indented) and anything else: its text, as a paragraph.
        const text = textOf(n);
        if (text.trim()) out.push({ t: "p", c: [text] });
      }
    }
  }
  return out;
}

/** The long-form text as the page draws it; [] for blank text. */
export function longFormBlocks(text: string): LongFormBlock[] {
  if (!text.trim()) return [];
  return blocks(fromMarkdown(text, { extensions: [NO_HTML] }).children, 0);
}
