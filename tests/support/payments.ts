/**
 * Tips and paid downloads in API tests (ADR 230, 231): an owner whose Connect account takes payments
 * (onboarded through the test provider's page), a download file uploaded, and payment links made
 * through the links API.
 */
import { expect } from "vitest";
import { TEST_ORIGIN, type TestApp } from "./app.ts";
import type { ApiOwner } from "./owner.ts";

export const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");

/** "Get paid", then the test provider's onboarding page's "complete". */
export async function connectOwner(owner: ApiOwner): Promise<void> {
  const start = await owner.call("POST", "/api/connect/onboarding");
  expect(start.status).toBe(201);
  const link = new URL(((await start.json()) as { url: string }).url).searchParams.get("link")!;
  const done = await owner.call("POST", `/api/connect/test/links/${link}`, { outcome: "complete" });
  expect(done.status).toBe(200);
}

export async function uploadDownload(t: TestApp, owner: ApiOwner | null, file: Uint8Array | string = PDF, name = "guide.pdf", type = "application/pdf") {
  const form = new FormData();
  form.append("file", new Blob([file as BlobPart], { type }), name);
  const headers: Record<string, string> = { "Sec-Fetch-Site": "same-origin", Origin: TEST_ORIGIN };
  if (owner) headers.Cookie = owner.cookie;
  const res = await t.app.request("/api/payments/files", { method: "POST", headers, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

export const tipBody = (data: Record<string, unknown> = {}, title = "Buy me a coffee") => ({
  linkType: "tip",
  title,
  data: { currency: "usd", amounts: [300, 500, 1000], custom: "on", min: 100, max: 20000, message: "Thank you!", ...data },
});

export const downloadBody = (file: string, data: Record<string, unknown> = {}, title = "The guide") => ({
  linkType: "paid_download",
  title,
  data: { currency: "usd", price: 900, file, description: "Forty pages", message: "Enjoy it", ...data },
});

/** Adds a link through the API and answers its id. */
export async function addLink(owner: ApiOwner, body: unknown): Promise<string> {
  const res = await owner.call("POST", "/api/links", body);
  const json = (await res.json()) as any;
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json.link.id as string;
}

/** A form post from a published page on another host: no cookie, no same-origin headers. */
export function payForm(t: TestApp, linkId: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return t.app.request(`/api/pay/${linkId}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://pages.example", "Sec-Fetch-Site": "cross-site", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** A Plus owner, connected, with a published tip and a published paid download. */
export async function sellingOwner(t: TestApp, owner: ApiOwner) {
  await connectOwner(owner);
  const tipId = await addLink(owner, tipBody());
  const file = await uploadDownload(t, owner);
  expect(file.status).toBe(201);
  const downloadId = await addLink(owner, downloadBody(file.body.id));
  expect((await owner.call("POST", "/api/publish")).status).toBe(200);
  return { tipId, downloadId, fileId: file.body.id as string };
}

export const BUYER = "buyer@example.net";

/** A visitor pays for `linkId` on the test provider's payment page: the session id, and where it sent the buyer. */
export async function buy(t: TestApp, linkId: string, fields: Record<string, string> = { amount: "500" }, email = BUYER) {
  const res = await payForm(t, linkId, fields);
  expect(res.status).toBe(303);
  const sessionId = new URL(res.headers.get("location")!).searchParams.get("session")!;
  const paid = await t.app.request(`/api/pay/test/sessions/${sessionId}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" },
    body: JSON.stringify({ email, number: "4242 4242 4242 4242" }),
  });
  expect(paid.status).toBe(200);
  return { sessionId, redirectUrl: ((await paid.json()) as { redirectUrl: string }).redirectUrl };
}
