/**
 * Usernames nobody may claim: docs/product.md's list (section 8, Public page) plus every top-level path the
 * site itself serves, so a page can never shadow a route and a route never hides a page.
 */

/** docs/product.md section 8: a reserved username redirects to 404. */
export const SPEC_RESERVED_USERNAMES = [
  "auth",
  "dashboard",
  "admin",
  "api",
  "en",
  "www",
  "mail",
  "ftp",
  "localhost",
  "test",
  "dev",
  "app",
  "support",
  "blog",
  "status",
] as const;

/** Top-level routes and files of the site and the server (editor/pages, api/site.ts). */
export const ROUTE_RESERVED_USERNAMES = [
  "features",
  "pricing",
  "help",
  "contact",
  "privacy",
  "terms",
  "cookies",
  "affiliate-terms",
  "404",
  "500",
  "preview",
  "media",
  "_p",
  "_astro",
  "favicon",
  "manifest",
  "robots",
  "sitemap",
  "login",
  "logout",
  "signup",
  "register",
  "settings",
  "account",
  "billing",
  "pay",
  "affiliate",
  "about",
  "home",
  "index",
  "static",
  "assets",
  "public",
  "published",
  "root",
  "administrator",
  "security",
  "abuse",
  "postmaster",
  "webmaster",
  "hostmaster",
  "noreply",
  "no-reply",
  "plinth",
] as const;

const RESERVED = new Set<string>([...SPEC_RESERVED_USERNAMES, ...ROUTE_RESERVED_USERNAMES]);

/** Case-insensitive: usernames are stored lowercased. */
export function isReservedUsername(name: string): boolean {
  return RESERVED.has(name.trim().toLowerCase());
}
