/**
 * The account routes as the auth pages call them: hono/client over AppType (paths, bodies and
 * answers typed from the server), and `call` to turn our error shape into an AuthFailure carrying
 * the server's message, field messages and details. Unlike the dashboard's client, a 401 here is an
 * answer to show, not a reason to leave the page.
 */
import { hc } from "hono/client";
import type { AppType } from "#api/app.ts";

export const api = hc<AppType>("/api", { init: { credentials: "same-origin" } });
export const auth = api.auth;

export class AuthFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

type JsonResponse = { ok: boolean; status: number; json(): Promise<any> };

export async function call<R extends JsonResponse>(res: Promise<R>, fallback: string): Promise<Exclude<Awaited<ReturnType<R["json"]>>, { error: unknown }>> {
  let r;
  try {
    r = await res;
  } catch {
    // docs/product.md section 8 names one text per failure ("server message or fallback"); a request that never
    // got an answer has no server message, so it is the fallback.
    throw new AuthFailure(0, fallback);
  }
  const body = (await r.json().catch(() => ({}))) as any;
  if (!r.ok) {
    const e = body?.error ?? {};
    // Only a 4xx says what the person can change. A 5xx (our generic "Something went wrong", or a
    // proxy's error page) tells them nothing docs/product.md's fallback for this action does not.
    const message = r.status >= 500 ? fallback : (e.message ?? fallback);
    throw new AuthFailure(r.status, message, e.fields ?? {}, e.details ?? {});
  }
  return body;
}

export function failureMessage(err: unknown, fallback: string): string {
  return err instanceof AuthFailure ? err.message : fallback;
}

/** The claimed username is kept for the tab's life, so the wizard finds it after a detour. */
export const CLAIMED_USERNAME_KEY = "plinth_claimed_username";
