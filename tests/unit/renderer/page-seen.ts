/**
 * What a visitor sees on a rendered page, read from its HTML by the page's stable markup, so that two
 * renders of one page can be compared item by item (tests/unit/core/plan-pages.ts seenDifference):
 * each link's list item (data-link, or data-item where the item is no link), the list headings, the
 * social icons (data-social), the long-form text (.lf), the branding line (.brand), the <title> and
 * meta description, and the theme and font pairing the stylesheet draws with. Whatever else the body
 * holds is kept whole as `rest`, the rest of the head as `head` and the stylesheet's rules as
 * `rules`, so a difference anywhere else shows too.
 */
import { parse, serializeOuter, type DefaultTreeAdapterMap } from "parse5";
import { FONT_PAIRINGS, THEMES } from "#core/themes.ts";

type Node = DefaultTreeAdapterMap["childNode"];
type Element = DefaultTreeAdapterMap["element"];
type Parent = DefaultTreeAdapterMap["parentNode"];

export interface SeenItem {
  /** The link the item draws: its data-link or data-item. */
  id: string;
  /** The heading of the list it stands in; null at the top of the page. */
  list: string | null;
  /** Drawn as the main button (class "main"). */
  main: boolean;
  /** The thumbnail's address (img.th), or null. */
  thumb: string | null;
  /** The item's markup without the main-button class and without what stands before its title (thumbnail or icon). */
  face: string;
  /** What stands before its title: the thumbnail or the type's icon, as markup; "" for nothing. */
  mark: string;
}

export interface Seen {
  title: string;
  description: string;
  /**
   * The theme whose colours the page and its buttons are drawn in (a theme id of core/themes.ts), or
   * null where the owner's own colours stand in for the theme's.
   */
  theme: string | null;
  /**
   * The stylesheet's rules (an @media block is one; font faces left out), each as its shape (without
   * colours and font names: sizes and places, which no plan changes) and the colours it draws with
   * (what a theme changes, with the owner's colours or without). A page draws the rules of the link
   * types it shows, and only those.
   */
  rules: { shape: string; colours: string }[];
  /** The <head> without what is compared on its own (title, description, theme colour, stylesheet) and what follows from the items (the CSP, the social icons' sameAs). */
  head: string;
  /** The font pairing the page is set in, or null for the system fonts. */
  font: string | null;
  /** The "Powered by Plinth" line at the foot. */
  branding: boolean;
  /** The long-form text's markup, or "". */
  longForm: string;
  /** The social icons' platforms, in order. */
  socials: string[];
  /** The list headings, in order. */
  lists: string[];
  /** Every link's item, in page order. */
  items: SeenItem[];
  /** The name the page shows (h1), and its bio. */
  name: string;
  bio: string;
  /** The body without all of the above: the picture, the footer's buttons, the dialogs, the cookie banner. */
  rest: string;
}

const isElement = (n: Node | Parent): n is Element => "tagName" in n;
const attr = (e: Element, name: string) => e.attrs.find((a) => a.name === name)?.value;
const classes = (e: Element) => (attr(e, "class") ?? "").split(/\s+/).filter(Boolean);
const hasClass = (e: Element, c: string) => classes(e).includes(c);

function* elements(n: Parent): Generator<Element> {
  for (const c of n.childNodes) {
    if (!isElement(c)) continue;
    yield c;
    yield* elements(c);
  }
}
const find = (n: Parent, pred: (e: Element) => boolean) => [...elements(n)].filter(pred);
const first = (n: Parent, pred: (e: Element) => boolean) => find(n, pred)[0];
const textOf = (n: Node | Parent): string => ("value" in n && n.nodeName === "#text" ? n.value : "childNodes" in n ? n.childNodes.map(textOf).join("") : "");
const detach = (e: Element) => e.parentNode!.childNodes.splice(e.parentNode!.childNodes.indexOf(e), 1);

/** Each theme's colours as a page with no colours of its own draws them: the page's background and text, and its buttons'. */
const THEME_COLOURS = new Map(THEMES.map((t) => [`${t.background} ${t.text} ${t.buttonBackground}`, t.id]));

/** The theme whose colours the stylesheet draws the page and its buttons in; null if none does (the owner's colours). */
function themeOf(css: string): string | null {
  const body = css.match(/body\{[^}]*?background:([^;]+);color:([^;]+);/);
  const btn = css.match(/\.btn\{[^}]*?background:([^;]+);/);
  return THEME_COLOURS.get(`${body?.[1]} ${body?.[2]} ${btn?.[1]}`) ?? null;
}

/** A colour, or a gradient theme's background. */
const COLOUR = /linear-gradient\([^)]*\)|#[0-9a-f]{3,8}\b|rgba?\([^)]*\)/gi;
/** The top-level rules of `css` (an @media block is one), font faces left out, each as its shape and its colours. */
function rulesOf(css: string): Seen["rules"] {
  const plain = css.replace(/@font-face\{[^}]*\}/g, "");
  const rules: Seen["rules"] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < plain.length; i++) {
    if (plain[i] === "{") depth++;
    else if (plain[i] === "}" && --depth === 0) {
      const rule = plain.slice(start, i + 1);
      rules.push({ shape: rule.replace(/"[^"]+",/g, "").replace(COLOUR, "{colour}"), colours: (rule.match(COLOUR) ?? []).join(" ") });
      start = i + 1;
    }
  }
  return rules;
}

/**
 * The head as `seen` compares it: every copy of the title and the description must be the one the
 * page shows, the theme colour one the stylesheet draws; then they, the stylesheet, the CSP (its hashes
 * and sources follow the stylesheet and the links shown) and sameAs (the icons shown) are taken out.
 */
function headOf(head: Element, title: string, description: string, css: string): string {
  const copies = { title: [] as string[], description: [] as string[] };
  for (const e of find(head, (e) => e.tagName === "meta" || e.tagName === "style" || e.tagName === "title" || e.tagName === "script")) {
    const key = attr(e, "property") ?? attr(e, "name") ?? attr(e, "http-equiv");
    if (e.tagName === "title" || e.tagName === "style" || key === "Content-Security-Policy") detach(e);
    else if (key === "og:title" || key === "twitter:title") copies.title.push(attr(e, "content")!), detach(e);
    else if (key === "description" || key === "og:description" || key === "twitter:description") copies.description.push(attr(e, "content")!), detach(e);
    else if (key === "theme-color") {
      if (!css.includes(`background:${attr(e, "content")}`)) throw new Error(`theme-color ${attr(e, "content")} is none of the page's colours`);
      detach(e);
    } else if (attr(e, "type") === "application/ld+json" || attr(e, "id") === "plinth-config") {
      const text = e.childNodes[0] as Node & { value: string };
      const json = JSON.parse(text.value) as Record<string, unknown> & { mainEntity?: Record<string, unknown> };
      if (attr(e, "type") === "application/ld+json") {
        copies.title.push(json.name as string);
        copies.description.push(json.mainEntity!.description as string);
        json.name = json.mainEntity!.description = "";
        delete json.mainEntity!.sameAs;
      } else if (attr(e, "id") === "plinth-config") {
        copies.title.push(json.title as string);
        json.title = "";
      }
      text.value = JSON.stringify(json);
    }
  }
  for (const t of copies.title) if (t !== title) throw new Error(`the head names the page "${t}" as well as "${title}"`);
  for (const d of copies.description) if (d !== description) throw new Error(`the head describes the page as "${d}" as well as "${description}"`);
  return serializeOuter(head);
}

function fontOf(css: string): string | null {
  const heading = css.match(/h1,h2,h3,h4\{font-family:("([^"]+)",)?/)?.[2];
  const body = css.match(/body\{[^}]*font:16px\/1\.5 ("([^"]+)",)?/)?.[2];
  if (!heading && !body) return null;
  const pairing = FONT_PAIRINGS.find((p) => p.heading === heading && p.body === body);
  if (!pairing) throw new Error(`no font pairing sets ${heading} / ${body}`);
  return pairing.id;
}

/** One link's item (an <li> of a link list) read and taken out of the page. */
function itemOf(li: Element, list: string | null): SeenItem {
  const marked = first(li, (e) => attr(e, "data-link") !== undefined || attr(e, "data-item") !== undefined);
  if (!marked) throw new Error(`an item without data-link or data-item: ${serializeOuter(li)}`);
  const id = attr(marked, "data-link") ?? attr(marked, "data-item")!;
  const main = find(li, (e) => hasClass(e, "main")).length > 0;
  for (const e of find(li, (e) => hasClass(e, "main"))) e.attrs.find((a) => a.name === "class")!.value = classes(e).filter((c) => c !== "main").join(" ");
  // A button's thumbnail, or else its icon, stands before its title.
  const button = first(li, (e) => hasClass(e, "btn"));
  const lead = button?.childNodes[0];
  const thumbEl = lead && isElement(lead) && lead.tagName === "img" && hasClass(lead, "th") ? lead : null;
  let mark = "";
  if (lead && isElement(lead) && (thumbEl || lead.tagName === "svg")) {
    mark = serializeOuter(lead);
    detach(lead);
  }
  return { id, list, main, thumb: thumbEl ? attr(thumbEl, "src")! : null, face: serializeOuter(li), mark };
}

/** The links whose items the page `html` draws: the same markup `seen` reads, without building the page's tree. */
export function drawnLinks(html: string): Set<string> {
  return new Set([...html.matchAll(/ data-(?:link|item)="([^"]+)"/g)].map((m) => m[1]!));
}

/** What a visitor sees on the page `html`. */
export function seen(html: string): Seen {
  const doc = parse(html);
  const style = textOf(first(doc, (e) => e.tagName === "style")!);
  const title = textOf(first(doc, (e) => e.tagName === "title")!);
  const description = attr(first(doc, (e) => e.tagName === "meta" && attr(e, "name") === "description")!, "content")!;
  const body = first(doc, (e) => e.tagName === "body")!;
  const head = headOf(first(doc, (e) => e.tagName === "head")!, title, description, style);

  const items: SeenItem[] = [];
  const lists: string[] = [];
  for (const ul of find(body, (e) => e.tagName === "ul" && hasClass(e, "ls"))) {
    const section = ul.parentNode && isElement(ul.parentNode) && hasClass(ul.parentNode, "grp") ? ul.parentNode : null;
    const heading = section ? textOf(first(section, (e) => e.tagName === "h2")!) : null;
    if (heading !== null) lists.push(heading);
    for (const li of ul.childNodes) if (isElement(li)) items.push(itemOf(li, heading));
    detach(section ?? ul);
  }
  // A contact card's dialog belongs to its item: its card's face names it (data-dlg).
  for (const item of items) {
    const dlg = item.face.match(/data-dlg="([^"]+)"/)?.[1];
    const dialog = dlg ? first(body, (e) => e.tagName === "dialog" && attr(e, "id") === dlg) : undefined;
    if (dialog) {
      item.face += serializeOuter(dialog);
      detach(dialog);
    }
  }
  const socials: string[] = [];
  for (const a of find(body, (e) => attr(e, "data-social") !== undefined)) {
    socials.push(attr(a, "data-social")!);
    detach(a.parentNode as Element);
  }
  const lf = first(body, (e) => hasClass(e, "lf"));
  const longForm = lf ? serializeOuter(lf) : "";
  if (lf) detach(lf);
  const brand = first(body, (e) => hasClass(e, "brand"));
  if (brand) detach(brand);
  const name = textOf(first(body, (e) => e.tagName === "h1")!);
  const bioEl = first(body, (e) => hasClass(e, "bio"));
  // The share dialog's links to the networks carry the page's title, which is compared on its own.
  for (const a of find(first(body, (e) => attr(e, "id") === "d-share")!, (e) => e.tagName === "a")) {
    const href = a.attrs.find((h) => h.name === "href")!;
    href.value = href.value.replaceAll(encodeURIComponent(title), "{title}");
  }
  const rest = serializeOuter(body);
  return {
    title,
    description,
    theme: themeOf(style),
    rules: rulesOf(style),
    head,
    font: fontOf(style),
    branding: !!brand,
    longForm,
    socials,
    lists,
    items,
    name,
    bio: bioEl ? textOf(bioEl) : "",
    rest,
  };
}
