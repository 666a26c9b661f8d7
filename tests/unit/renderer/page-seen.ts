/**
 * What a visitor sees on a rendered page, read from its HTML by the page's stable markup, so that two
 * renders of one page can be compared item by item (tests/unit/core/plan-pages.ts seenDifference):
 * each link's list item (data-link, or data-item where the item is no link), the list headings, the
 * social icons (data-social), the long-form text (.lf), the branding line (.brand), the <title> and
 * meta description, and the theme and font pairing the stylesheet draws with. Whatever else the body
 * holds is kept whole as `rest`, so a difference anywhere else shows too.
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
  /** The theme whose colours the page and its buttons are drawn in (a theme id of core/themes.ts). */
  theme: string;
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

/** The theme whose colours the stylesheet draws the page and its buttons in. */
function themeOf(css: string): string {
  const body = css.match(/body\{[^}]*?background:([^;]+);color:([^;]+);/);
  const btn = css.match(/\.btn\{[^}]*?background:([^;]+);/);
  const drawn = `${body?.[1]} ${body?.[2]} ${btn?.[1]}`;
  const id = THEME_COLOURS.get(drawn);
  if (!id) throw new Error(`no theme draws ${drawn}`);
  return id;
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
