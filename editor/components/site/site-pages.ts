/**
 * The marketing site's pages: path, title and description, in one list that the layouts, the pages'
 * route (pages/[...page].astro), the browser tests and the Lighthouse script all read.
 */
export type SitePageId =
  | "home"
  | "features"
  | "pricing"
  | "help"
  | "contact"
  | "status"
  | "privacy"
  | "terms"
  | "cookies"
  | "affiliate-terms";

export interface SitePage {
  path: string;
  title: string;
  description: string;
}

export const SITE_PAGES: Record<SitePageId, SitePage> = {
  home: {
    path: "/",
    title: "Plinth: Your Links, Elevated | Link in Bio Platform",
    description: "Claim your free Plinth page: one fast, accessible link-in-bio page for your links, social profiles and bio.",
  },
  features: {
    path: "/features",
    title: "Features | Plinth",
    description: "Every link type, themes and button styles, analytics, QR codes, contact cards, scheduling, lead magnets and Promote & Earn.",
  },
  pricing: {
    path: "/pricing",
    title: "Pricing | Plinth",
    description: "Plinth Lite is free forever. Plinth Plus unlocks every feature, with a free trial for every new account.",
  },
  help: {
    path: "/help",
    title: "Help | Plinth",
    description: "Answers to common questions about building, publishing and growing your Plinth page.",
  },
  contact: {
    path: "/contact",
    title: "Contact | Plinth",
    description: "Send the Plinth team a message. We answer by e-mail.",
  },
  status: {
    path: "/status",
    title: "Status | Plinth",
    description: "Live status of the Plinth API and database, and when a page was last published.",
  },
  privacy: {
    path: "/privacy",
    title: "Privacy Policy | Plinth",
    description: "What Plinth stores, why, for how long, and how to have it deleted.",
  },
  terms: {
    path: "/terms",
    title: "Terms of Service | Plinth",
    description: "The rules for using Plinth, its plans and its published pages.",
  },
  cookies: {
    path: "/cookies",
    title: "Cookie Policy | Plinth",
    description: "The cookies and browser storage Plinth uses, and what the cookie banner lets visitors choose.",
  },
  "affiliate-terms": {
    path: "/affiliate-terms",
    title: "Affiliate Terms | Plinth",
    description: "The rules of Promote & Earn, the Plinth affiliate programme: commission, eligibility and payouts.",
  },
};

/** The main navigation, in docs/product.md's order (section 2, Public navigation). */
export const MAIN_NAV: readonly { id: SitePageId; label: string }[] = [
  { id: "home", label: "Home" },
  { id: "features", label: "Features" },
  { id: "pricing", label: "Pricing" },
  { id: "help", label: "Help" },
  { id: "contact", label: "Contact" },
];

/** The footer (docs/product.md section 2, Route table): the navigation pages, then status and the legal pages under /en. */
export const FOOTER_LINKS: readonly { href: string; label: string }[] = [
  { href: "/features", label: "Features" },
  { href: "/pricing", label: "Pricing" },
  { href: "/help", label: "Help" },
  { href: "/contact", label: "Contact" },
  { href: "/en/status", label: "Status" },
  { href: "/en/privacy", label: "Privacy" },
  { href: "/en/terms", label: "Terms" },
  { href: "/en/cookies", label: "Cookies" },
  { href: "/affiliate-terms", label: "Affiliate Terms" },
];

/** Every marketing page path, and each under /en. */
export const MARKETING_PATHS: readonly string[] = Object.values(SITE_PAGES).flatMap((p) => [p.path, p.path === "/" ? "/en" : `/en${p.path}`]);

/** The page a path shows, with /en and trailing slashes stripped; null for other paths. */
export function pageIdOf(pathname: string): SitePageId | null {
  const path = pathname.replace(/^\/en(?=\/|$)/, "").replace(/\/+$/, "") || "/";
  const hit = (Object.entries(SITE_PAGES) as [SitePageId, SitePage][]).find(([, p]) => p.path === path);
  return hit ? hit[0] : null;
}

/**
 * The canonical path of a marketing page's address: an /en copy names the unprefixed page, except
 * /en itself, which names itself. A canonical from another path to the site's root is the "every page
 * points home" mistake to search engines and Lighthouse, which then ignore it (ADR 143). Null for a
 * path that is not a marketing page.
 */
export function canonicalPathOf(pathname: string): string | null {
  const id = pageIdOf(pathname);
  if (!id) return null;
  const path = SITE_PAGES[id].path;
  return path === "/" && /^\/en\/?$/.test(pathname) ? "/en" : path;
}
