/**
 * Requests by host (ADR 241). With custom domains on (CUSTOM_DOMAIN_TARGET set), a request whose
 * host is a verified custom domain gets that owner's page at `/` and the page's files; the www /
 * apex companion redirects to the domain; any other host that is not the operator's own gets 404.
 * The operator's own hosts (PUBLIC_ORIGIN's, PUBLIC_PAGES_ORIGIN's, the target's, loopback names and
 * IP addresses, which health checks and the proxy's ask use) go on to the site as before.
 *
 * The host is the request's Host header; X-Forwarded-Host, which any client can send, is read only
 * behind trusted proxies (TRUST_PROXY, ADR 091), and then its last entry, the nearest proxy's.
 */
import type { Context, MiddlewareHandler } from "hono";
import { proxy } from "hono/proxy";
import { isUnder } from "#core/domains.ts";
import { hasFeature } from "#core/plans.ts";
import { IMMUTABLE, REVALIDATE } from "#renderer/content-types.ts";
import type { AppDeps } from "./context.ts";
import { PAGE_HEADERS } from "./content-security.ts";
import { pagesOrigin } from "./env.server.ts";
import { domainHostLookup } from "./services/domains.ts";
import { planStateOf } from "./services/profile.ts";
import { fileInside, fileResponse } from "./static-files.ts";

/** The page's own files, at the root of its domain or under its username as the page names them. */
const PAGE_FILE = /^\/(?:([a-z0-9_-]{3,30})\/)?(qr-[0-9a-z]+\.svg|contact-[0-9a-z]+\.vcf)$/;
const SHARED_FILE = /^\/(?:_p|media)\/[^/]/;

/** The host a request names, lowercase, without its port or final dot; null when it names none. */
export function requestHost(c: Context, trustProxy: number): string | null {
  const forwarded = trustProxy > 0 ? c.req.header("x-forwarded-host")?.split(",").at(-1)?.trim() : undefined;
  const raw = forwarded || c.req.header("host") || new URL(c.req.url).host;
  if (!raw) return null;
  const host = raw.startsWith("[") ? raw.slice(0, raw.indexOf("]") + 1) : raw.replace(/:\d*$/, "");
  return host.toLowerCase().replace(/\.$/, "") || null;
}

/** Loopback names and IP addresses: the machine itself, a load balancer's health check, the proxy's ask. */
const isMachineHost = (host: string) => host === "localhost" || host.endsWith(".localhost") || host.startsWith("[") || /^[0-9.]+$/.test(host);

/** The router, or null with custom domains off: then every host is answered as it always was. */
export function customHosts(deps: AppDeps, answers: { notFound: (c: Context) => Response | Promise<Response>; unavailable: (c: Context) => Response }): MiddlewareHandler | null {
  const { env } = deps;
  const target = env.CUSTOM_DOMAIN_TARGET;
  if (!target) return null;
  const own = [new URL(env.PUBLIC_ORIGIN).hostname, target, ...(env.PUBLIC_PAGES_ORIGIN ? [new URL(env.PUBLIC_PAGES_ORIGIN).hostname] : [])].map((h) => h.toLowerCase());
  const verified = domainHostLookup(deps.db);
  const bucketPages = env.PUBLISH_TARGET === "s3" ? pagesOrigin(env) : null;

  return async (c, next) => {
    const host = requestHost(c, env.TRUST_PROXY);
    if (host === null) return answers.notFound(c);
    if (isMachineHost(host) || own.includes(host)) return next();
    const domain = own.some((h) => isUnder(host, h)) ? null : verified(host);
    if (!domain) return answers.notFound(c);
    const path = c.req.path;
    const search = new URL(c.req.url).search;
    // The companion (www. or the apex) is one claim with the domain: it goes to the page's address.
    if (host !== domain.name) return c.redirect(`https://${domain.name}${path}${search}`, 301);
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return answers.notFound(c);
    if (domain.suspended) return answers.unavailable(c);
    // The plan no longer has custom domains: the page is at its Plinth address (ADR 240).
    if (!hasFeature(planStateOf(domain.plan), "custom_domain", deps.now())) return c.redirect(`${pagesOrigin(env)}/${domain.username}${path === "/" ? search : ""}`, 302);

    const req = { method: c.req.method, ifNoneMatch: c.req.header("if-none-match"), acceptEncoding: c.req.header("accept-encoding") };
    if (path === "/robots.txt") {
      // The sitemap that lists this page at this address is the operator's (cross-host submission).
      const body = `User-agent: *\nAllow: /\n\nSitemap: ${pagesOrigin(env)}/sitemap.xml\n`;
      return new Response(c.req.method === "HEAD" ? null : body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": REVALIDATE } });
    }
    if (path === `/${domain.username}`) return c.redirect(`/${search}`, 301);
    let file: string | null = null;
    let cacheControl = IMMUTABLE;
    let headers: Record<string, string> | undefined;
    if (path === "/") {
      file = `/${domain.username}/index.html`;
      cacheControl = REVALIDATE;
      headers = PAGE_HEADERS;
    } else if (SHARED_FILE.test(path)) file = path;
    else {
      const named = PAGE_FILE.exec(path);
      if (named && (named[1] === undefined || named[1] === domain.username)) file = `/${domain.username}/${named[2]}`;
    }
    if (!file) return answers.notFound(c);
    // With a bucket the pages are not on this machine: the CDN's copy is passed on (ADR 242).
    if (bucketPages) {
      const res = await proxy(`${bucketPages}${file === `/${domain.username}/index.html` ? `/${domain.username}` : file}`, { method: c.req.method, headers: { "accept-encoding": req.acceptEncoding ?? "", ...(req.ifNoneMatch ? { "if-none-match": req.ifNoneMatch } : {}) } });
      if (res.status === 404 || res.status === 403) return answers.notFound(c);
      const passed = new Headers(res.headers);
      for (const [name, value] of Object.entries(headers ?? {})) passed.set(name, value);
      return new Response(res.body, { status: res.status, headers: passed });
    }
    const found = fileInside(env.PUBLISHED_DIR, file);
    if (!found) return answers.notFound(c);
    return fileResponse(found, { cacheControl, headers, ...req });
  };
}
