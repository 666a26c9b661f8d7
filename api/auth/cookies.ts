/**
 * Every cookie the server sets goes through here. Served over https (PUBLIC_ORIGIN), a cookie's name
 * carries the `__Host-` prefix: the browser then keeps it only when it is Secure, for Path=/ and
 * without a Domain, so no sibling subdomain (or a plain-http page of this one) can plant or
 * overwrite it. Over plain http (localhost) names stay as they are, since browsers refuse `__Host-`
 * without Secure. Cookies are read under the same name, so a planted unprefixed cookie is ignored.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, getSignedCookie, setCookie, setSignedCookie } from "hono/cookie";

/** Whether visitors reach the product over https, so its cookies can be Secure and `__Host-`. */
export function isSecureOrigin(publicOrigin: string): boolean {
  return publicOrigin.startsWith("https://");
}

const HOST_PREFIX = "__Host-";

/** The name a cookie has in the browser. */
export function cookieName(name: string, secure: boolean): string {
  return secure ? `${HOST_PREFIX}${name}` : name;
}

export interface CookieOptions {
  httpOnly?: boolean;
  maxAge?: number;
  expires?: Date;
}

const options = (secure: boolean, opts: CookieOptions) => ({
  path: "/",
  sameSite: "Lax" as const,
  httpOnly: true,
  secure,
  ...(secure ? { prefix: "host" as const } : {}),
  ...opts,
});

export function readCookie(c: Context, name: string, secure: boolean): string | undefined {
  return getCookie(c, name, secure ? "host" : undefined);
}

export function writeCookie(c: Context, name: string, value: string, secure: boolean, opts: CookieOptions = {}): void {
  setCookie(c, name, value, options(secure, opts));
}

export function clearCookie(c: Context, name: string, secure: boolean, opts: Pick<CookieOptions, "httpOnly"> = {}): void {
  deleteCookie(c, name, options(secure, opts));
}

/** A cookie whose value carries an HMAC-SHA256 of itself, so the browser can hold it but not change it. */
export function writeSignedCookie(c: Context, name: string, value: string, secret: string, secure: boolean, opts: CookieOptions = {}): Promise<void> {
  return setSignedCookie(c, name, value, secret, options(secure, opts));
}

/** The value when its signature holds; `false` when the cookie is there but was changed; undefined when absent. */
export async function readSignedCookie(c: Context, name: string, secret: string, secure: boolean): Promise<string | false | undefined> {
  return getSignedCookie(c, secret, name, secure ? "host" : undefined);
}
