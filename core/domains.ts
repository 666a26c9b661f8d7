/**
 * Custom domains (ADR 240): the rule a domain name must meet, its stored form (ASCII, the IDNA
 * "xn--" encoding of an international name) and its shown form (Unicode), the DNS records an owner
 * creates, and the texts the API answers with. Pure: the DNS lookups are the API's.
 */
import { toUnicode } from "punycode/punycode.es6.js";
import { parsedUrl } from "./url-rule.ts";

/** How long a domain is checked in the background after it is added (or after "Check now" once that ended). */
export const DOMAIN_CHECK_PERIOD_MS = 24 * 60 * 60_000;
/** How often the background check runs while it lasts. */
export const DOMAIN_CHECK_EVERY_MS = 5 * 60_000;
/** A DNS name: 253 characters written out, 63 per label (RFC 1035). */
export const DOMAIN_MAX = 253;
export const DOMAIN_LABEL_MAX = 63;
/** The TXT record's name: `_plinth.` before the domain. */
export const TXT_PREFIX = "_plinth.";
/** The TXT record's value: this, then the domain's token. */
export const TXT_VALUE_PREFIX = "plinth-verification=";

export const DOMAIN_MESSAGES = {
  required: "Please enter a domain",
  invalid: "Please enter a domain name such as links.example.com, without https:// or a path",
  tooLong: `A domain name has at most ${DOMAIN_MAX} characters, and ${DOMAIN_LABEL_MAX} between two dots`,
  mixedScripts: "Each part of a domain name must be written in one alphabet: mixing lookalike letters is not allowed",
  reserved: "This domain is reserved and cannot be used",
  operator: "This is Plinth's own domain: enter a domain of your own",
  taken: "This domain is already connected to another page",
  onePerPage: "Your page already has a domain: remove it to add another",
  notSetUp: "Custom domains are not available on this server",
  notFound: "Your page has no custom domain",
} as const;

/** Each record's state, and the domain's, as the dashboard says it. */
export const DOMAIN_STATE_TEXTS = {
  found: "Found",
  missing: "Not found yet",
  wrong: "Found, but it points elsewhere",
  verified: "Verified: your page is live at this address",
  pending: "Waiting for the DNS records: we check every few minutes for a day",
  stopped: "Not verified: we stopped checking after a day. Check the records, then press Check now",
  taken: "Another page verified this domain first",
} as const;

/** The dashboard's Domain tab (Account & Billing): its headings, labels and buttons. */
export const DOMAIN_SCREEN = {
  title: "Custom domain",
  intro: "Show your page at your own address, such as links.yourname.com, instead of its Plinth address.",
  field: "Domain",
  hint: "A subdomain such as links.yourname.com, or a domain such as yourname.com. No https:// or path.",
  add: "Add domain",
  adding: "Adding...",
  recordsTitle: "DNS records to create",
  recordsIntro: "Create these two records where your domain's DNS is managed. Changes can take a while to reach everyone.",
  ownership: "Proves the domain is yours",
  routing: "Sends visitors to your page",
  type: "Type",
  name: "Name",
  value: "Value",
  state: "Status",
  seen: "Found now:",
  checkNow: "Check now",
  checking: "Checking...",
  lastChecked: "Last checked",
  address: "Your page's address",
  remove: "Remove domain",
  removeTitle: "Remove this domain?",
  removeText: (shown: string) => `Your page goes back to its Plinth address, and ${shown} stops showing it. You can add a domain again at any time.`,
  removeConfirm: "Remove domain",
  removed: "Domain removed",
  cancel: "Cancel",
  plusTitle: "Custom domain is a Plinth Plus feature",
  plusText: "Upgrade to Plinth Plus to show your page at your own domain.",
  upgrade: "Upgrade to Plus",
  loadFailed: "Your domain could not be loaded. Please reload the page.",
} as const;

/** Under the CNAME record: what an apex domain, which cannot have a CNAME, creates instead. */
export const apexNote = (target: string) =>
  `For a domain without a subdomain, create A and AAAA records with the addresses of ${target} instead, or an ALIAS record if your DNS provider offers one.`;

/** Characters never part of a typed domain: controls, spaces and invisible marks of every kind. */
const INVISIBLE = /[\u0000-\u0020\u007f-\u00a0\u00ad\u061c\u115f\u1160\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\uffa0]/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Names no owner may use (RFC 6761, RFC 6762, RFC 7686, RFC 9476 and the ICANN-held ".internal"):
 * they never resolve on the public internet, or name documentation examples.
 */
const RESERVED_TLDS = new Set(["localhost", "local", "test", "example", "invalid", "internal", "onion", "arpa", "alt", "lan", "home", "corp", "intranet", "private"]);
const RESERVED_NAMES = new Set(["example.com", "example.net", "example.org"]);

export type DomainParse = { ok: true; ascii: string } | { ok: false; message: string };

/** The alphabets a label's letters may come from; a label uses one (digits and hyphens go with any). */
const SCRIPTS = ["Latin", "Cyrillic", "Greek", "Armenian", "Hebrew", "Arabic", "Han", "Hiragana", "Katakana", "Hangul", "Thai", "Devanagari", "Georgian"] as const;
const SCRIPT_TESTS = SCRIPTS.map((s) => new RegExp(`\\p{Script=${s}}`, "u"));
/** Japanese mixes Han, Hiragana and Katakana in one word; Korean mixes Hangul and Han. */
const COMPATIBLE: readonly (readonly number[])[] = [[6, 7, 8], [6, 9]];

function oneScript(label: string): boolean {
  const used = new Set<number>();
  for (const ch of label) {
    // Only letters have an alphabet; anything else is for the label rule to judge.
    if (!/\p{L}/u.test(ch)) continue;
    const i = SCRIPT_TESTS.findIndex((re) => re.test(ch));
    used.add(i);
  }
  if (used.size <= 1) return true;
  return COMPATIBLE.some((group) => [...used].every((i) => group.includes(i)));
}

/**
 * A domain as typed (Unicode or ASCII, any case, with or without a final dot) as its stored ASCII
 * form, or the reason it is refused. No scheme, path, port, user or IP address; each label of the
 * typed name in one alphabet (no "pаypal.com" with a Cyrillic "а"); at least two labels.
 */
export function parseDomain(input: unknown): DomainParse {
  if (typeof input !== "string" || input.trim() === "") return { ok: false, message: DOMAIN_MESSAGES.required };
  // Longer than any Unicode spelling of a 253-character name could be: refused before any work.
  if (input.length > 4 * DOMAIN_MAX) return { ok: false, message: DOMAIN_MESSAGES.tooLong };
  const typed = input.trim().normalize("NFC").toLowerCase().replace(/\.$/, "");
  if (INVISIBLE.test(typed) || /[/:@?#\\[\]%*'"<>`]/.test(typed)) return { ok: false, message: DOMAIN_MESSAGES.invalid };
  if (typed.split(".").some((label) => !oneScript(label))) return { ok: false, message: DOMAIN_MESSAGES.mixedScripts };
  // WHATWG's host parser: UTS 46 mapping and the "xn--" encoding, as every browser does it.
  const ascii = parsedUrl(`https://${typed}/`)?.hostname;
  if (ascii === undefined) return { ok: false, message: DOMAIN_MESSAGES.invalid };
  if (ascii.length > DOMAIN_MAX || ascii.split(".").some((l) => l.length > DOMAIN_LABEL_MAX)) return { ok: false, message: DOMAIN_MESSAGES.tooLong };
  if (isReservedDomain(ascii)) return { ok: false, message: DOMAIN_MESSAGES.reserved };
  const labels = ascii.split(".");
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return { ok: false, message: DOMAIN_MESSAGES.invalid };
  // An IPv4 address in any spelling the parser takes ends in a number; a top-level domain never does.
  if (/^[0-9]+$/.test(labels.at(-1)!)) return { ok: false, message: DOMAIN_MESSAGES.invalid };
  // An "xn--" label must be the encoding of a name (the parser checked it decodes to itself).
  if (labels.some((l) => l.startsWith("xn--") && toUnicode(l) === l)) return { ok: false, message: DOMAIN_MESSAGES.invalid };
  if (labels.some((l) => l.startsWith("xn--")) && toUnicode(ascii).split(".").some((label) => !oneScript(label))) return { ok: false, message: DOMAIN_MESSAGES.mixedScripts };
  return { ok: true, ascii };
}

export function isReservedDomain(ascii: string): boolean {
  const labels = ascii.split(".");
  return RESERVED_TLDS.has(labels.at(-1)!) || RESERVED_NAMES.has(labels.slice(-2).join("."));
}

/** Whether `ascii` is `host` or a name under it: the operator's own names are never an owner's. */
export function isUnder(ascii: string, host: string): boolean {
  return ascii === host || ascii.endsWith(`.${host}`);
}

/** The stored ASCII form as people read it: international labels in Unicode. */
export function domainShown(ascii: string): string {
  try {
    return toUnicode(ascii);
  } catch {
    return ascii;
  }
}

/**
 * `www.x` and `x` are one claim (ADR 240): the one the owner added is the page's address, the other
 * one redirects to it. The claim key is the name without its leading "www.".
 */
export function claimKeyOf(ascii: string): string {
  return ascii.startsWith("www.") && ascii.split(".").length > 2 ? ascii.slice(4) : ascii;
}

/**
 * Whether `host` is served for the added domain `name`: the name itself, the apex of an added
 * `www.` name, or the `www.` of an added two-label apex (`www.x.com` for `x.com`). The `www.` of a
 * deeper name (`www.links.x.com`) is not: without the public suffix list a name's apex is not known,
 * and a certificate is never asked for a name nobody uses (ADR 240).
 */
export function servesHost(name: string, host: string): boolean {
  if (host === name) return true;
  if (name === `www.${host}`) return true;
  return host === `www.${name}` && name.split(".").length === 2;
}

/** The page's address on its domain. Custom domains are served over https only (ADR 240). */
export const domainUrl = (ascii: string): string => `https://${ascii}/`;

/**
 * A page's address as people read it (ADR 244): without the scheme or a final slash, an international
 * domain in Unicode: `links.bücher.net`, `plinth.example/ada`. The link itself keeps the ASCII form.
 */
export function addressShown(url: string): string {
  const u = parsedUrl(url);
  if (!u) return url;
  const host = domainShown(u.hostname) + (u.port ? `:${u.port}` : "");
  return `${host}${u.pathname.replace(/\/+$/, "")}`;
}
