/**
 * The API as the hosted billing pages call it (hono/client over AppType), and the shared wording of
 * their states. A page of another owner, or one that does not exist, reads the same.
 */
import { hc } from "hono/client";
import type { AppType } from "#api/app.ts";

export const api = hc<AppType>("/api", { init: { credentials: "same-origin" } });

export class Failure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

type JsonResponse = { ok: boolean; status: number; json(): Promise<any> };

/** The JSON of a successful answer; otherwise a Failure with the server's message. A 401 goes to sign-in and back. */
export async function call<R extends JsonResponse>(res: Promise<R>): Promise<Exclude<Awaited<ReturnType<R["json"]>>, { error: unknown }>> {
  let r;
  try {
    r = await res;
  } catch {
    throw new Failure(0, "Network error. Please check your connection and try again.");
  }
  const body = (await r.json().catch(() => ({}))) as any;
  if (!r.ok) {
    if (r.status === 401) window.location.assign(`/auth/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    const e = body?.error ?? {};
    throw new Failure(r.status, r.status >= 500 ? "Something went wrong. Please try again later." : (e.message ?? "Something went wrong. Please try again later."), e.fields ?? {});
  }
  return body;
}

export const param = (name: string) => new URLSearchParams(window.location.search).get(name) ?? "";
