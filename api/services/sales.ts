/**
 * Tips and sales (ADR 232): the visitor's checkout, the provider's events that make a sale paid or
 * refunded, the buyer's download link, and the owner's list of sales.
 *
 * The checkout reads the item from the page's last published version as it shows now (the plan and
 * the schedule applied, like lead magnets, ADR 092): the price is the one the visitor saw, never one
 * the form sends; the link must still exist in the draft. A suspended account or page, an owner
 * whose plan no longer has payments, or a link no longer shown answers 410.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { EARNINGS_PATH, platformFee } from "#core/connect.ts";
import type { PageLink } from "#core/model.ts";
import { chosenAmount, formatAmount, paidDownloadOf, PAYMENT_MESSAGES, PAYMENTS, tipConfigOf, type PayForm } from "#core/schemas/payments.ts";
import { hasFeature } from "#core/plans.ts";
import { visibleContentOf } from "#core/visible-content.ts";
import { transaction, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { downloadFiles, downloadGrants, links, sales, userProfiles, users } from "#db/schema.ts";
import type { ConnectChargeObject, ConnectCheckoutObject } from "../billing/connect-events.ts";
import { enqueueJob } from "../jobs/queue.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { quoted } from "../mail/quote.ts";
import { planOf } from "#renderer/draft.ts";
import { lastPublishedSnapshot } from "#renderer/publish.ts";
import { pagesOrigin } from "../env.server.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { billingFor } from "./billing.ts";
import { connectAccountOf } from "./connect.ts";
import { planStateOf } from "./profile.ts";
import { creatorNameOf } from "./lead-mail.ts";

export type SaleRow = typeof sales.$inferSelect;

const gone = (message: string = PAYMENT_MESSAGES.notAvailable) => new ApiError("gone", message);

/** Where the buyer lands after paying: the success page, which the sale's key opens. */
export const successUrl = (origin: string, sale: Pick<SaleRow, "id" | "receiptKey">) => `${origin}/pay/thanks?sale=${sale.id}&key=${sale.receiptKey}`;

/** The creator's page a payment link is on (the refusal page's link back), or null for an unknown link. */
export function creatorPageOf(deps: AppDeps, linkId: string): string | null {
  if (linkId.length > 64) return null;
  const row = deps.db.select({ username: userProfiles.username }).from(links).innerJoin(userProfiles, eq(userProfiles.userId, links.userId)).where(eq(links.id, linkId)).get();
  return row ? `${pagesOrigin(deps.env)}/${encodeURIComponent(row.username)}` : null;
}

/** The item a visitor pays for, as the published page shows it now; a 404 or 410 otherwise. */
function publishedItem(deps: AppDeps, linkId: string): { link: PageLink; userId: string; username: string } {
  const row = deps.db
    .select({ profile: userProfiles, suspendedAt: users.suspendedAt })
    .from(links)
    .innerJoin(userProfiles, eq(userProfiles.userId, links.userId))
    .innerJoin(users, eq(users.id, links.userId))
    .where(eq(links.id, linkId))
    .get();
  if (!row) throw new ApiError("not_found", "Not found");
  const now = deps.now();
  // A suspended account or page takes no payments (ADR 108, 109).
  if (row.suspendedAt || row.profile.pageSuspendedAt || !row.profile.hasPublishedPage) throw gone();
  if (!hasFeature(planStateOf(row.profile), "creator_payments", now)) throw gone();
  const published = lastPublishedSnapshot(deps.db, row.profile.userId);
  const link = published ? visibleContentOf(published.snapshot, planOf(row.profile), now).links.find((l) => l.id === linkId) : undefined;
  if (!link || (link.linkType !== "tip" && link.linkType !== "paid_download")) throw gone();
  return { link, userId: row.profile.userId, username: row.profile.username };
}

/**
 * POST /api/pay/:linkId: a Checkout Session on the creator's Connect account for the amount the
 * server decides (a suggested amount, or one of the visitor's own within the owner's range; a
 * download's price), with the operator's fee; the sale is recorded open before the session is made.
 */
export async function startPayment(deps: AppDeps, linkId: string, form: PayForm): Promise<{ url: string }> {
  const { link, userId, username } = publishedItem(deps, linkId);
  const account = connectAccountOf(deps.db, userId);
  if (!account || !account.chargesEnabled) throw gone(PAYMENT_MESSAGES.notTakingPayments);

  let amount: number;
  let currency: string;
  let fileId: string | null = null;
  let kind: "tip" | "download";
  if (link.linkType === "tip") {
    const tip = tipConfigOf(link.data);
    if (!tip) throw gone();
    const chosen = chosenAmount(form);
    if (chosen === null) throw new ApiError("bad_request", PAYMENT_MESSAGES.amountInvalid, { fields: { amount: PAYMENT_MESSAGES.amountInvalid } });
    // A suggested amount is one the page shows; any other needs "choose an amount" and the owner's range.
    const allowed = form.amount === "custom" ? tip.custom : tip.amounts.includes(chosen);
    if (!allowed) throw new ApiError("bad_request", PAYMENT_MESSAGES.amountInvalid, { fields: { amount: PAYMENT_MESSAGES.amountInvalid } });
    if (chosen < tip.min) throw new ApiError("bad_request", PAYMENT_MESSAGES.amountTooSmall, { fields: { amount: PAYMENT_MESSAGES.amountTooSmall } });
    if (chosen > tip.max) throw new ApiError("bad_request", PAYMENT_MESSAGES.amountTooLarge, { fields: { amount: PAYMENT_MESSAGES.amountTooLarge } });
    amount = chosen;
    currency = tip.currency;
    kind = "tip";
  } else {
    const item = paidDownloadOf(link.data);
    if (!item) throw gone();
    amount = item.price;
    currency = item.currency;
    fileId = item.fileId;
    kind = "download";
  }
  const { provider } = billingFor(deps);
  const fee = platformFee(amount, deps.env.PLATFORM_FEE_PERCENT);
  const sale: SaleRow = {
    id: newId(),
    userId,
    linkId: link.id,
    kind,
    itemTitle: link.title,
    amount,
    currency,
    feeAmount: fee,
    note: kind === "tip" ? form.note : "",
    notePrivate: kind === "tip" && form.private === "on",
    status: "open",
    provider: provider.name,
    accountId: account.accountId,
    sessionId: null,
    paymentIntentId: null,
    buyerEmail: null,
    fileId,
    receiptKey: randomBytes(16).toString("hex"),
    createdAt: deps.now(),
    paidAt: null,
    refundedAt: null,
    refundedAmount: 0,
  };
  deps.db.insert(sales).values(sale).run();
  let session: { id: string; url: string };
  try {
    session = await provider.createConnectCheckoutSession({
    accountId: account.accountId,
    amount,
    currency,
    feeAmount: fee,
    name: link.title,
    kind,
    successUrl: successUrl(deps.env.PUBLIC_ORIGIN, sale),
    cancelUrl: `${pagesOrigin(deps.env)}/${encodeURIComponent(username)}`,
    metadata: { saleId: sale.id },
    });
  } catch (err) {
    // No session, no sale: the open row goes again.
    deps.db.delete(sales).where(eq(sales.id, sale.id)).run();
    throw err;
  }
  deps.db.update(sales).set({ sessionId: session.id }).where(eq(sales.id, sale.id)).run();
  return { url: session.url };
}

// ---------------------------------------------------------------------------------------------
// The provider's events (applied once, in the webhook's transaction: services/connect.ts)

const saleById = (tx: Db, id: string) => tx.select().from(sales).where(eq(sales.id, id)).get();

/**
 * checkout.session.completed on a connected account: the open sale it was made for becomes paid,
 * if everything matches what the server asked for (the account, the session, the amount and the
 * currency); a Paid download's buyer gets a download link by e-mail.
 */
export function completeSale(deps: AppDeps, tx: Db, account: string, session: ConnectCheckoutObject): void {
  const saleId = session.metadata.saleId;
  const sale = saleId ? saleById(tx, saleId) : undefined;
  if (!sale || sale.status !== "open") return;
  const provider = billingFor(deps).provider.name;
  if (sale.provider !== provider || sale.accountId !== account || sale.sessionId !== session.id) return;
  if (session.payment_status !== "paid" || session.amount_total !== sale.amount || session.currency !== sale.currency) return;
  const at = deps.now();
  const email = session.customer_email?.toLowerCase() ?? null;
  tx.update(sales).set({ status: "paid", paidAt: at, buyerEmail: email, paymentIntentId: session.payment_intent }).where(eq(sales.id, sale.id)).run();
  // The mails are queued in this transaction, which records the event and finds the sale open only
  // once: each is sent once, whichever process the provider's event reached (ADR 239).
  const owner = tx
    .select({ email: users.email, username: userProfiles.username, displayName: userProfiles.displayName })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.id, sale.userId))
    .get();
  if (owner) enqueueJob(tx, { kind: "mail", payload: ownerSaleMail(owner.email, { ...sale, buyerEmail: email }, deps.env.PUBLIC_ORIGIN) }, at);
  if (sale.kind !== "download") {
    const message = sale.linkId ? (tx.select({ data: links.linkSpecificData }).from(links).where(eq(links.id, sale.linkId)).get()?.data.message ?? "") : "";
    if (email && owner) enqueueJob(tx, { kind: "mail", payload: tipReceiptMail(email, sale, creatorNameOf(owner.displayName, owner.username), message, at) }, at);
    return;
  }
  const grant = { id: newId(), saleId: sale.id, key: randomBytes(32).toString("hex"), expiresAt: new Date(at.getTime() + PAYMENTS.DOWNLOAD_LINK_TTL_MS), maxUses: PAYMENTS.DOWNLOAD_LINK_MAX_USES, createdAt: at };
  tx.insert(downloadGrants).values(grant).run();
  if (email) enqueueJob(tx, { kind: "mail", payload: downloadMail(email, sale, downloadUrl(deps.env.PUBLIC_ORIGIN, grant), grant.expiresAt) }, at);
}

const subjectText = (text: string) => text.replace(/[\r\n\u0000-\u001f\u007f]+/g, " ").trim().slice(0, 100);

/** The owner's notice of a tip or a sale: what came in, the operator's fee, what is theirs, and the visitor's note. */
export function ownerSaleMail(to: string, sale: Pick<SaleRow, "kind" | "itemTitle" | "amount" | "currency" | "feeAmount" | "note" | "notePrivate" | "buyerEmail">, origin: string): MailMessage {
  const amount = formatAmount(sale.amount, sale.currency);
  const tip = sale.kind === "tip";
  const lines = [
    tip ? `You received a tip of ${amount} through your page:` : `You sold a download for ${amount}:`,
    "",
    quoted(sale.itemTitle),
    "",
    `Plinth's fee: ${formatAmount(sale.feeAmount, sale.currency)}. Yours: ${formatAmount(sale.amount - sale.feeAmount, sale.currency)} (before Stripe's processing fee).`,
  ];
  if (sale.buyerEmail) lines.push(tip ? `From: ${sale.buyerEmail}` : `Buyer: ${sale.buyerEmail}`);
  if (sale.note) lines.push("", sale.notePrivate ? "Their note (only you see it):" : "Their note:", quoted(sale.note));
  lines.push("", `See all your sales: ${origin}${EARNINGS_PATH}`);
  return { to, subject: tip ? `New tip: ${amount} for ${subjectText(sale.itemTitle)}` : `New sale: ${subjectText(sale.itemTitle)} (${amount})`, text: lines.join("\n") };
}

/** A tipper's receipt and thanks, with the creator's thank-you message. */
export function tipReceiptMail(to: string, sale: Pick<SaleRow, "itemTitle" | "amount" | "currency">, creator: string, message: string, at: Date): MailMessage {
  const amount = formatAmount(sale.amount, sale.currency);
  const lines = [`Thank you for your tip of ${amount} to ${creator}.`, "", quoted(sale.itemTitle)];
  if (message.trim()) lines.push("", `A message from ${creator}:`, quoted(message));
  lines.push("", `Paid on ${at.toUTCString()}. The payment went to ${creator} through Stripe; it shows on your statement under their name.`);
  return { to, subject: `Your tip to ${subjectText(creator)}`, text: lines.join("\n") };
}

/**
 * charge.refunded on a connected account (ADR 239): `amount_refunded` is what has been refunded so
 * far. A whole refund marks the sale refunded and its download link stops working; a partial one
 * records the amount (never less than already recorded: events may come out of order) and leaves
 * the buyer's link working.
 */
export function refundSale(deps: AppDeps, tx: Db, account: string, charge: ConnectChargeObject): void {
  if (!charge.payment_intent) return;
  const provider = billingFor(deps).provider.name;
  const sale = tx.select().from(sales).where(and(eq(sales.provider, provider), eq(sales.paymentIntentId, charge.payment_intent))).get();
  if (!sale || sale.accountId !== account || sale.status !== "paid") return;
  const at = deps.now();
  if (charge.refunded || charge.amount_refunded >= sale.amount) {
    tx.update(sales).set({ status: "refunded", refundedAt: at, refundedAmount: sale.amount }).where(eq(sales.id, sale.id)).run();
    tx.update(downloadGrants).set({ revokedAt: at }).where(eq(downloadGrants.saleId, sale.id)).run();
    return;
  }
  if (charge.amount_refunded > sale.refundedAmount) tx.update(sales).set({ refundedAmount: charge.amount_refunded, refundedAt: at }).where(eq(sales.id, sale.id)).run();
}

// ---------------------------------------------------------------------------------------------
// The buyer's download link

type GrantRow = typeof downloadGrants.$inferSelect;

const signatureOf = (grant: Pick<GrantRow, "id" | "key">, expires: number) => createHmac("sha256", grant.key).update(`${grant.id}.${expires}`).digest("base64url");

/** `{id}.{expires ms}.{signature}`: the signature is an HMAC of the id and expiry under the grant's own key. */
export const downloadToken = (grant: Pick<GrantRow, "id" | "key" | "expiresAt">) => `${grant.id}.${grant.expiresAt.getTime()}.${signatureOf(grant, grant.expiresAt.getTime())}`;
export const downloadUrl = (origin: string, grant: Pick<GrantRow, "id" | "key" | "expiresAt">) => `${origin}/api/pay/download/${downloadToken(grant)}`;

export function downloadMail(to: string, sale: Pick<SaleRow, "itemTitle" | "amount" | "currency">, url: string, expires: Date): MailMessage {
  return {
    to,
    subject: `Your download: ${sale.itemTitle.replace(/[\r\n]+/g, " ").slice(0, 100)}`,
    text: [
      `Thank you for your purchase (${formatAmount(sale.amount, sale.currency)}).`,
      "",
      quoted(sale.itemTitle),
      "",
      `Download it here: ${url}`,
      "",
      `The link works ${PAYMENTS.DOWNLOAD_LINK_MAX_USES} times, until ${expires.toUTCString()}.`,
    ].join("\n"),
  };
}

/**
 * GET /api/pay/download/:token: the file, if the token's signature checks out, it has not expired
 * (by the app's clock), the sale was not refunded and a use is left; the use is taken in the same
 * statement that checks the count, so two requests at once cannot both take the last one.
 */
export function useDownloadToken(deps: AppDeps, token: string): { file: typeof downloadFiles.$inferSelect; name: string } {
  const notFound = () => new ApiError("not_found", PAYMENT_MESSAGES.linkNotFound);
  const m = /^([A-Za-z0-9_-]{1,40})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) throw notFound();
  const [, id, expires, signature] = m as unknown as [string, string, string, string];
  const grant = deps.db.select().from(downloadGrants).where(eq(downloadGrants.id, id)).get();
  if (!grant || grant.expiresAt.getTime() !== Number(expires)) throw notFound();
  const expected = Buffer.from(signatureOf(grant, Number(expires)));
  if (!timingSafeEqual(expected, Buffer.from(signature))) throw notFound();
  const sale = saleById(deps.db, grant.saleId);
  if (!sale || !sale.fileId) throw notFound();
  if (grant.revokedAt || sale.status === "refunded") throw new ApiError("gone", PAYMENT_MESSAGES.linkRefunded);
  if (deps.now().getTime() >= grant.expiresAt.getTime()) throw new ApiError("gone", PAYMENT_MESSAGES.linkExpired);
  const file = deps.db.select().from(downloadFiles).where(eq(downloadFiles.id, sale.fileId)).get();
  if (!file) throw new ApiError("gone", PAYMENT_MESSAGES.notAvailable);
  const taken = deps.db
    .update(downloadGrants)
    .set({ uses: sql`${downloadGrants.uses} + 1` })
    .where(and(eq(downloadGrants.id, grant.id), lt(downloadGrants.uses, downloadGrants.maxUses)))
    .run();
  if (taken.changes === 0) throw new ApiError("gone", PAYMENT_MESSAGES.linkUsedUp);
  return { file, name: sale.itemTitle };
}

/**
 * GET /api/pay/sales/:id?key=: the success page's view of the buyer's own sale (the key came in the
 * success url): whether it is paid yet, the thank-you, and the download link once the webhook came.
 */
export function saleReceipt(deps: AppDeps, saleId: string, key: string) {
  const sale = saleById(deps.db, saleId);
  const keyOk = sale && key.length === sale.receiptKey.length && timingSafeEqual(Buffer.from(key), Buffer.from(sale.receiptKey));
  if (!sale || !keyOk) throw new ApiError("not_found", "Not found");
  const link = sale.linkId ? deps.db.select({ data: links.linkSpecificData }).from(links).where(eq(links.id, sale.linkId)).get() : undefined;
  const grant = sale.status === "paid" ? deps.db.select().from(downloadGrants).where(eq(downloadGrants.saleId, sale.id)).get() : undefined;
  return {
    status: sale.status,
    kind: sale.kind,
    title: sale.itemTitle,
    amount: sale.amount,
    currency: sale.currency,
    message: link?.data.message ?? "",
    downloadUrl: grant && !grant.revokedAt ? downloadUrl(deps.env.PUBLIC_ORIGIN, grant) : null,
    expiresAt: grant ? grant.expiresAt.toISOString() : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The owner's Sales screen

/** "9.00"; a negative net (a refund after the fee was taken) as a number, which a spreadsheet reads as one (text starting "-" is defused). */
const money = (cents: number): string | number => (cents < 0 ? Number((cents / 100).toFixed(2)) : (cents / 100).toFixed(2));

/** The owner's paid and refunded sales, newest first: date, item, amount, fee, net, buyer e-mail. */
export function listSales(deps: AppDeps, userId: string, limit = 1000) {
  const rows = deps.db
    .select()
    .from(sales)
    .where(and(eq(sales.userId, userId), sql`${sales.status} <> 'open'`))
    .orderBy(sql`${sales.paidAt} DESC`)
    .limit(limit)
    .all();
  return rows.map((s) => ({
    id: s.id,
    date: s.paidAt!.toISOString(),
    kind: s.kind,
    item: s.itemTitle,
    amount: s.amount,
    fee: s.feeAmount,
    /** Refunded so far (ADR 239); the operator's fee is not given back by a refund. */
    refunded: s.refundedAmount,
    net: s.amount - s.feeAmount - s.refundedAmount,
    currency: s.currency,
    buyerEmail: s.buyerEmail,
    status: s.status,
    note: s.note,
    notePrivate: s.notePrivate,
  }));
}

/** The Sales screen's CSV export: one row per sale, amounts in the currency's units ("9.00"). */
export function salesCsv(deps: AppDeps, userId: string): (string | number | null)[][] {
  const rows: (string | number | null)[][] = [["Date", "Item", "Type", "Amount", "Fee", "Refunded", "Net", "Currency", "Buyer email", "Status", "Note"]];
  for (const s of listSales(deps, userId, 100_000)) {
    const status = s.status === "refunded" ? "Refunded" : s.refunded > 0 ? "Partly refunded" : "Paid";
    rows.push([s.date, s.item, s.kind === "tip" ? "Tip" : "Download", money(s.amount), money(s.fee), money(s.refunded), money(s.net), s.currency.toUpperCase(), s.buyerEmail, status, s.note]);
  }
  return rows;
}

/**
 * Resend a buyer's link (the owner's own paid download sale): a fresh link, 72 hours and 5
 * downloads from now, replaces the old one (which stops working) and is e-mailed again.
 */
export function resendDownload(deps: AppDeps, userId: string, saleId: string): { expiresAt: string } {
  const sale = saleById(deps.db, saleId);
  if (!sale || sale.userId !== userId || sale.status === "open") throw new ApiError("not_found", "Not found");
  if (sale.kind !== "download" || !sale.buyerEmail) throw new ApiError("conflict", PAYMENT_MESSAGES.nothingToResend);
  if (sale.status === "refunded") throw new ApiError("gone", PAYMENT_MESSAGES.linkRefunded);
  const at = deps.now();
  const grant = { key: randomBytes(32).toString("hex"), expiresAt: new Date(at.getTime() + PAYMENTS.DOWNLOAD_LINK_TTL_MS), uses: 0, maxUses: PAYMENTS.DOWNLOAD_LINK_MAX_USES, revokedAt: null };
  const email = sale.buyerEmail;
  transaction(deps.db, (tx) => {
    const existing = tx.select().from(downloadGrants).where(eq(downloadGrants.saleId, sale.id)).get();
    const id = existing?.id ?? newId();
    if (existing) tx.update(downloadGrants).set(grant).where(eq(downloadGrants.id, id)).run();
    else tx.insert(downloadGrants).values({ id, saleId: sale.id, ...grant, createdAt: at }).run();
    enqueueJob(tx, { kind: "mail", payload: downloadMail(email, sale, downloadUrl(deps.env.PUBLIC_ORIGIN, { id, ...grant }), grant.expiresAt) }, at);
  });
  return { expiresAt: grant.expiresAt.toISOString() };
}
