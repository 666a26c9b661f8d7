/**
 * The owner's side of tips and paid downloads (ADR 231): the files Paid download links sell. The
 * visitor's side (checkout, downloads) is api/routes/pay.ts.
 */
import { Hono } from "hono";
import { validator } from "hono/validator";
import { hasFeature } from "#core/plans.ts";
import { PAYMENT_MESSAGES, PAYMENTS } from "#core/payments.ts";
import { csvRows } from "#core/analytics.ts";
import { z } from "zod";
import { runJobs } from "../jobs/runner.ts";
import { listSales, resendDownload, salesCsv } from "../services/sales.ts";
import { params } from "../validate.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { uploadBodyLimit, uploadedBytes } from "../body-limit.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError, plusRequired } from "../errors.ts";
import { downloadTooLarge, invalidDownload, saveDownloadFile } from "../services/download-files.ts";
import { getProfile, planStateOf } from "../services/profile.ts";
import { createRateLimiter, limitStoreFor } from "../services/rate-limit.ts";

export const isDownloadUpload = (method: string, path: string) => method === "POST" && path === "/api/payments/files";

/** Sold files are larger than link files: a burst of 10, then one a minute. */
const UPLOAD_BURST = 10;
const UPLOAD_RATE_LIMITED = "Too many uploads. Please wait a minute and try again.";

const downloadForm = validator("form", (value): { file: File } => {
  const v = value as Record<string, unknown>;
  if (!(v.file instanceof File)) throw invalidDownload();
  if (v.file.size > PAYMENTS.DOWNLOAD_MAX_BYTES) throw downloadTooLarge();
  return { file: v.file };
});

const SaleParamSchema = z.object({ id: z.string().min(1).max(64) });

export function paymentRoutes(deps: AppDeps) {
  const { db, env, now } = deps;
  const limiter = createRateLimiter(UPLOAD_BURST, 1 / 60, { now, store: limitStoreFor(db), name: "download-uploads" });
  return (
    new Hono<AppEnv>()
      .use(requireUser)
      // POST /api/payments/files - multipart {file} -> 201 {id, name, bytes}: a file for a Paid download,
      // checked by its bytes and kept private; the link dialog then saves its id with the link
      .post(
        "/files",
        uploadBodyLimit(PAYMENTS.DOWNLOAD_MAX_BYTES, downloadTooLarge),
        downloadForm,
        async (c) => {
          const user = currentUser(c);
          const at = now();
          if (!hasFeature(planStateOf(getProfile(db, user.id)), "creator_payments", at)) throw plusRequired("creator_payments");
          if (!limiter.take(user.id)) throw new ApiError("rate_limited", UPLOAD_RATE_LIMITED);
          const { file } = c.req.valid("form");
          const bytes = await uploadedBytes(file, invalidDownload);
          const row = saveDownloadFile(db, env.DATA_DIR, user.id, bytes, file.name, at);
          return c.json({ id: row.id, name: row.originalName, bytes: row.bytes, contentType: row.contentType }, 201);
        },
      )
      // GET /api/payments/sales - the owner's sales, newest first: date, item, amount, fee, net, buyer e-mail
      .get("/sales", (c) => c.json({ sales: listSales(deps, currentUser(c).id) }))
      // GET /api/payments/sales.csv - the same as a spreadsheet
      .get("/sales.csv", (c) =>
        c.body(csvRows(salesCsv(deps, currentUser(c).id)), 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="sales.csv"` }),
      )
      // POST /api/payments/sales/:id/resend - a fresh download link e-mailed to the buyer again
      .post("/sales/:id/resend", params(SaleParamSchema), async (c) => {
        const result = resendDownload(deps, currentUser(c).id, c.req.valid("param").id);
        await runJobs(deps);
        return c.json({ ...result, message: PAYMENT_MESSAGES.linkResent });
      })
  );
}
