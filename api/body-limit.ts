import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "./errors.ts";

/** JSON bodies are small; uploads have their own, larger limit on their routes. */
export const JSON_BODY_LIMIT = 64 * 1024;

export const bodyTooLarge = () => new ApiError("payload_too_large", "Request body is too large");

/** A body limit of `maxSize` bytes that refuses a larger body with `refusal`, whether its length is declared or streamed. */
export const limitBody = (maxSize: number, refusal: () => Error) =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw refusal();
    },
  });

/** The API's body limit: 413 with our message. */
export const jsonBodyLimit = limitBody(JSON_BODY_LIMIT, bodyTooLarge);

/** Room for the multipart envelope around a file of the largest allowed size. */
const MULTIPART_OVERHEAD = 16 * 1024;

/** The body limit of an upload route whose file may be `maxFileBytes` long; a larger body is refused with `tooLarge`. */
export const uploadBodyLimit = (maxFileBytes: number, tooLarge: () => Error) => limitBody(maxFileBytes + MULTIPART_OVERHEAD, tooLarge);

/** An uploaded file's bytes; a file that cannot be read is refused with `unreadable`. */
export async function uploadedBytes(file: File, unreadable: () => Error): Promise<Uint8Array> {
  try {
    return new Uint8Array(await file.arrayBuffer());
  } catch {
    throw unreadable();
  }
}

/**
 * The body as text, at most JSON_BODY_LIMIT bytes (413 whether the length is declared or streamed).
 * On the Node server it is read straight from Node's request stream: the fetch Request and the web
 * stream that `c.req.text()` builds cost more than the rest of a visitor's beacon.
 */
export async function bodyText(c: Context): Promise<string> {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (!incoming) {
    // app.request() in tests.
    const text = await c.req.text();
    if (Buffer.byteLength(text) > JSON_BODY_LIMIT) throw bodyTooLarge();
    return text;
  }
  if (Number(incoming.headers["content-length"] ?? 0) > JSON_BODY_LIMIT) throw bodyTooLarge();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= JSON_BODY_LIMIT) return void chunks.push(chunk);
      // The rest is read and dropped, so the answer can still be sent on this connection.
      incoming.removeAllListeners("data");
      incoming.resume();
      reject(bodyTooLarge());
    });
    incoming.on("end", () => resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")));
    incoming.on("error", reject);
  });
}
