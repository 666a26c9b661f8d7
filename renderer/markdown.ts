/**
 * Long-form text as a safe subset of Markdown (ADR 126, ADR 148): paragraphs, headings, emphasis,
 * strong, ordered and unordered lists and links. CommonMark is parsed by markdown-it with raw HTML
 * off (tags stay text), then reduced to the small tree below: plain data the page draws with React,
 * so no string of markup is ever built from what the owner typed.
 *  - markdown-it's time grows in step with its input, whatever the input (it is tested against
 *    CommonMark's pathological cases), unlike micromark's, which a 5,000-character list or run of
 *    emphasis markers kept busy for seconds (issue 35). A text is parsed once and its tree kept
 *    (KEPT_TEXTS), so previews and re-renders of the same text do not parse it again.
 *  - A link keeps its address only when safe-href accepts it (the one URL rule of links); otherwise
 *    its text shows, unlinked. Reference-style links and images show as their text.
 *  - `#` and `##` become the page's second level of headings, `###` and deeper its third and fourth:
 *    the page's name is its only first-level heading.
 *  - Code, quotes and rules keep their text as paragraphs; what nests deeper than MAX_DEPTH is text.
 *  - Character references decode to the characters they name; `longFormProblem` tells the API when
 *    one names a character the text rule refuses (issue 35), and the page drops any such character
 *    a text saved earlier still holds. It also refuses nesting deeper than the parser reads.
 * Runs on the server (at save, then at render), and in the dashboard's live preview; never in the
 * visitor's page.
 */
import MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";
import { LONG_FORM_LIST_ITEMS_MAX, LONG_FORM_NESTING_MAX, longFormListItems } from "#core/profile.ts";
import { hasInvisible, withoutInvisible } from "#core/text-rule.ts";
import { safeHref } from "./components/safe-href.ts";

export type LongFormInline = string | { t: "em" | "strong"; c: LongFormInline[] } | { t: "a"; href: string; c: LongFormInline[] } | { t: "br" };
export type LongFormBlock =
  | { t: "p"; c: LongFormInline[] }
  | { t: "h"; level: 2 | 3 | 4; c: LongFormInline[] }
  | { t: "ul" | "ol"; start: number; tight: boolean; items: LongFormBlock[][] };

/** Deeper nesting (lists in lists, emphasis in emphasis) is drawn as the plain text it holds. */
const MAX_DEPTH = 8;
/**
 * markdown-it's own nesting limit (its parser recurses once per level), past which it drops the
 * rest of the text. A list level is two of its levels (the list and the item), a quote one, so
 * LONG_FORM_NESTING_MAX levels of lists and their paragraphs stay under it; the API refuses a text
 * that reaches it (`tooDeep`), so nothing an owner saves is dropped.
 */
const PARSER_MAX_NESTING = 2 * LONG_FORM_NESTING_MAX + 4;
/** Parsed texts kept, the most recently used last (a few megabytes at most). */
const KEPT_TEXTS = 200;

const md = new MarkdownIt("commonmark", { html: false, linkify: false, typographer: false, maxNesting: PARSER_MAX_NESTING });
// Addresses stay as the owner wrote them (entities and escapes decoded): safe-href is the one judge
// of an address, and a control character is refused there rather than percent-encoded here.
md.normalizeLink = (url) => url;
md.normalizeLinkText = (url) => url;
// Reference definitions are read (and so not shown) but never resolved: `[text][ref]` stays its
// characters, so every address comes from an inline link or an autolink, one path to prove.
md.core.ruler.after("block", "plinth_forget_references", (state) => {
  state.env = { ...state.env, references: {} };
  return true;
});

/** A token with what it encloses: markdown-it's flat open/close stream made into a tree. */
interface Node {
  token: Token;
  children: Node[];
}

function treeOf(tokens: readonly Token[]): Node[] {
  const root: Node[] = [];
  const stack: Node[][] = [root];
  for (const token of tokens) {
    const level = stack[stack.length - 1]!;
    if (token.nesting === 1) {
      const node: Node = { token, children: [] };
      level.push(node);
      stack.push(node.children);
    } else if (token.nesting === -1) {
      if (stack.length > 1) stack.pop();
    } else {
      level.push({ token, children: token.children ? treeOf(token.children) : [] });
    }
  }
  return root;
}

/** The plain text a node holds. */
function textOf(node: Node): string {
  const { type, content } = node.token;
  if (type === "text" || type === "text_special" || type === "code_inline" || type === "code_block" || type === "fence") return content;
  if (type === "softbreak" || type === "hardbreak") return "\n";
  let out = "";
  for (const child of node.children) out += textOf(child);
  return out;
}

/** Adjacent strings joined, so the page draws one text node where the owner wrote one run of text. */
function push(out: LongFormInline[], item: LongFormInline): void {
  const last = out.length - 1;
  if (typeof item === "string" && typeof out[last] === "string") out[last] += item;
  else if (item !== "") out.push(item);
}

function inlines(nodes: readonly Node[], depth: number): LongFormInline[] {
  const out: LongFormInline[] = [];
  for (const n of nodes) {
    if (depth >= MAX_DEPTH) {
      push(out, textOf(n));
      continue;
    }
    switch (n.token.type) {
      case "em_open":
      case "strong_open":
        out.push({ t: n.token.type === "em_open" ? "em" : "strong", c: inlines(n.children, depth + 1) });
        break;
      case "link_open": {
        const href = safeHref(String(n.token.attrGet("href") ?? ""));
        const c = inlines(n.children, depth + 1);
        if (href) out.push({ t: "a", href, c });
        else for (const x of c) push(out, x);
        break;
      }
      case "hardbreak":
        out.push({ t: "br" });
        break;
      default:
        push(out, textOf(n));
    }
  }
  return out;
}

/** The inline content of a paragraph or heading node. */
const inlineOf = (n: Node, depth: number) => inlines(n.children[0]?.token.type === "inline" ? n.children[0].children : [], depth);

function blocks(nodes: readonly Node[], depth: number, out: LongFormBlock[] = []): LongFormBlock[] {
  for (const n of nodes) {
    const { type, tag } = n.token;
    switch (type) {
      case "paragraph_open":
        out.push({ t: "p", c: inlineOf(n, depth + 1) });
        break;
      case "heading_open": {
        const c = inlineOf(n, depth + 1);
        const level = Number(tag.slice(1));
        if (c.length) out.push({ t: "h", level: level <= 2 ? 2 : level === 3 ? 3 : 4, c });
        break;
      }
      case "bullet_list_open":
      case "ordered_list_open": {
        if (depth >= MAX_DEPTH) {
          out.push({ t: "p", c: [textOf(n)] });
          break;
        }
        const start = Number(n.token.attrGet("start") ?? 1);
        // markdown-it hides the paragraphs of a tight list's items.
        const tight = n.children.every((item) => item.children.every((c) => c.token.type !== "paragraph_open" || c.token.hidden));
        out.push({
          t: type === "ordered_list_open" ? "ol" : "ul",
          start: Number.isSafeInteger(start) ? start : 1,
          tight,
          items: n.children.map((item) => blocks(item.children, depth + 1)),
        });
        break;
      }
      case "blockquote_open":
        if (depth >= MAX_DEPTH) out.push({ t: "p", c: [textOf(n)] });
        else blocks(n.children, depth + 1, out);
        break;
      case "hr":
        break;
      default: {
        // Code (fenced or indented) and anything else: its text, as a paragraph.
        const text = textOf(n).replace(/\n$/, "");
        if (text.trim()) out.push({ t: "p", c: [text] });
      }
    }
  }
  return out;
}

/** Whether any string the tree shows, or any address it links, holds a character the text rule refuses. */
function anyInvisible(list: readonly (LongFormBlock | LongFormInline)[]): boolean {
  for (const b of list) {
    if (typeof b === "string") {
      if (hasInvisible(b)) return true;
    } else if ("items" in b) {
      for (const item of b.items) if (anyInvisible(item)) return true;
    } else if (b.t !== "br") {
      if (b.t === "a" && hasInvisible(b.href)) return true;
      if (anyInvisible(b.c)) return true;
    }
  }
  return false;
}

/** Drops the characters the text rule refuses from every string (text saved before the rule saw decoded text). */
function cleanInline(b: LongFormInline): LongFormInline {
  if (typeof b === "string") return withoutInvisible(b);
  if (b.t === "br") return b;
  return { ...b, c: b.c.map(cleanInline) };
}

function cleanBlock(b: LongFormBlock): LongFormBlock {
  if ("items" in b) return { ...b, items: b.items.map((item) => item.map(cleanBlock)) };
  return { ...b, c: b.c.map(cleanInline) };
}

const kept = new Map<string, ParsedLongForm>();

export interface ParsedLongForm {
  blocks: LongFormBlock[];
  /** A character reference names a character the text rule refuses (dropped from `blocks`). */
  invisible: boolean;
  /** Lists and quotes nest so deep that the parser stopped reading. */
  tooDeep: boolean;
}

/** The parse itself, never kept. */
function parseLongForm(text: string): ParsedLongForm {
  const tokens = md.parse(text, {});
  const tooDeep = tokens.some((t) => t.level >= PARSER_MAX_NESTING - 1);
  const tree = blocks(treeOf(tokens), 0);
  const invisible = anyInvisible(tree);
  return { blocks: invisible ? tree.map(cleanBlock) : tree, invisible, tooDeep };
}

function parsed(text: string) {
  const known = kept.get(text);
  if (known) {
    // Most recently used last.
    kept.delete(text);
    kept.set(text, known);
    return known;
  }
  const result = parseLongForm(text);
  kept.set(text, result);
  if (kept.size > KEPT_TEXTS) kept.delete(kept.keys().next().value!);
  return result;
}

/** The long-form text as the page draws it; [] for blank text. The tree is shared: never change it. */
export function longFormBlocks(text: string): LongFormBlock[] {
  if (!text.trim()) return [];
  return parsed(text).blocks;
}

/**
 * What the API refuses in a long-form text beyond the text rule (issue 35): more list items than
 * LONG_FORM_LIST_ITEMS_MAX, a character reference naming a character the rule refuses, and nesting
 * the parser would not read to the end. Parses the
 * text and keeps the result, so the page's render that follows the save does not parse it again.
 */
export function longFormProblem(text: string): "invisible" | "too_deep" | "too_many_items" | null {
  if (!text.trim()) return null;
  // Counted before any parse: the parser's cost grows faster than the number of list items.
  if (longFormListItems(text) > LONG_FORM_LIST_ITEMS_MAX) return "too_many_items";
  const { invisible, tooDeep } = parsed(text);
  return invisible ? "invisible" : tooDeep ? "too_deep" : null;
}
