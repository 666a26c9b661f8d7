/**
 * A published page's tip and download buttons are plain HTML forms posted to /api/pay/:linkId
 * (ADR 231), so when the checkout refuses (a suspended page, an amount out of range, too many
 * attempts...) the visitor's browser shows the answer itself. A form post (Accept: text/html) gets a
 * small readable page with the product's message and a link back to the creator's page (ADR 237);
 * an API client keeps the JSON error.
 */
import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { escapeXml } from "#renderer/escape.ts";
import type { AppEnv } from "../context.ts";
import { ApiError, unexpectedError } from "../errors.ts";

const STYLE =
  "body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#0f172a;background:#f8fafc}" +
  "main{max-width:32rem;margin:3rem auto;padding:1.5rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;text-align:center}" +
  "h1{font-size:1.5rem;margin:0 0 .5rem}p{margin:.5rem 0;color:#334155}" +
  "a{display:inline-block;margin-top:1rem;padding:.6rem 1rem;border-radius:.375rem;background:#4338ca;color:#fff;text-decoration:none;font-weight:600}" +
  "a:focus-visible{outline:3px solid #0f172a;outline-offset:2px}@media (max-width:24rem){main{margin:1rem .5rem}}";
const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

/** Whether the request is a browser's form navigation rather than an API client's call. */
export const wantsHtml = (c: Context) => /\btext\/html\b/i.test(c.req.header("Accept") ?? "");

export interface RefusalTexts {
  titles: Partial<Record<number, string>>;
  fallbackTitle: string;
  /** Said when there is no page to link back to. */
  noLink: string;
}

/** The checkout's refusals. */
export const CHECKOUT_REFUSALS: RefusalTexts = {
  titles: { 400: "Please check the amount", 404: "Payment not found", 410: "Payments are not available", 413: "Payment not sent", 429: "Please wait a moment" },
  fallbackTitle: "Payment not started",
  noLink: "Go back to the page and try again.",
};

/** A buyer's download link that no longer works (opened from the e-mail). */
export const DOWNLOAD_REFUSALS: RefusalTexts = {
  titles: { 404: "Download link not valid", 410: "Download not available" },
  fallbackTitle: "Download not available",
  noLink: "If you paid for this file, ask the creator to send the link again.",
};

/** The refusal page: the message, and a link back to the page when the address is one (http or https). */
export function refusalPage(texts: RefusalTexts, status: number, message: string, back: string | null): string {
  const title = texts.titles[status] ?? texts.fallbackTitle;
  const link = back && /^https?:\/\//i.test(back) ? `<a href="${escapeXml(back)}">Back to the page</a>` : `<p>${escapeXml(texts.noLink)}</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeXml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeXml(title)}</h1><p>${escapeXml(message)}</p>${link}</main></body></html>`;
}

/**
 * After the route ran: an error answered to a form post becomes the refusal page, with the same
 * status and headers (Retry-After...). `backOf` names the creator's page for the link back.
 */
export function htmlRefusals(texts: RefusalTexts, backOf: (c: Context<AppEnv>) => string | null = () => null): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (!c.error || !wantsHtml(c)) return;
    const err = c.error instanceof ApiError ? c.error : unexpectedError();
    const headers = new Headers(c.res.headers);
    headers.set("Content-Type", "text/html; charset=utf-8");
    headers.set("Content-Security-Policy", `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
    headers.delete("Content-Length");
    c.res = undefined;
    c.res = new Response(refusalPage(texts, err.status, err.message, backOf(c)), { status: err.status, headers });
  };
}
