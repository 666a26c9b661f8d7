/**
 * A browser, as far as the API can tell: same-origin headers and a cookie jar, so API tests walk
 * signup and sign-in exactly as the pages do.
 */
import { sameOrigin, type TestApp } from "./app.ts";

export interface Browser {
  jar: Map<string, string>;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  json<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  cookie(name: string): string | undefined;
}

export function browser(t: TestApp): Browser {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await t.app.request(path, {
      method,
      headers: sameOrigin({ ...(jar.size ? { Cookie: cookieHeader() } : {}), ...headers }),
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || attrs.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]!) < Date.now());
      if (expired || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }
  return {
    jar,
    call,
    async json(method, path, body) {
      const res = await call(method, path, body);
      return { status: res.status, body: (await res.json()) as any };
    },
    cookie: (name) => jar.get(name),
  };
}
