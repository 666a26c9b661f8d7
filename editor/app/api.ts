/**
 * The API as the dashboard calls it: hono/client over AppType, so paths, bodies and answers are typed
 * from the server's own routes. `unwrap` turns our error shape into a thrown ApiFailure.
 */
import { hc } from "hono/client";
import type { AppType } from "#api/app.ts";

export const api = hc<AppType>("/api", { init: { credentials: "same-origin" } });

/** Set while signing out: the 401s of requests still in flight must not send the owner to sign-in. */
let signingOut = false;
export function setSigningOut(value: boolean): void {
  signingOut = value;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
    readonly details: { feature?: string; features?: string[] } & Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The JSON of a successful answer, or an ApiFailure carrying the server's message and fields. */
export async function unwrap<T>(res: Promise<{ ok: boolean; status: number; json(): Promise<T> }>): Promise<Exclude<T, { error: unknown }>> {
  let r;
  try {
    r = await res;
  } catch {
    throw new ApiFailure(0, "Network error. Please check your connection and try again.");
  }
  const body = (await r.json().catch(() => ({}))) as any;
  if (!r.ok) {
    const e = body?.error ?? {};
    // Signed out (or the session ended elsewhere): to sign-in, and back to this page afterwards.
    if (r.status === 401 && typeof window !== "undefined" && !signingOut) {
      window.location.assign(`/auth/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    }
    throw new ApiFailure(r.status, e.message ?? "Something went wrong. Please try again later.", e.fields ?? {}, e.details ?? {});
  }
  return body;
}

/** The server's message of a 4xx, which tells the owner what to change; none for a network failure or a 5xx. */
export const clientErrorMessage = (err: unknown) => (err instanceof ApiFailure && err.status > 0 && err.status < 500 ? err.message : undefined);

/** The 409 of a write based on a version another tab or device has since changed (ADR 068). */
export const isStaleWrite = (err: unknown): err is ApiFailure => err instanceof ApiFailure && err.status === 409 && err.details.stale === true;
