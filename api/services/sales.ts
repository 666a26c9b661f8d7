/**
 * Tips and sales (ADR 232): the visitor's checkout, the provider's events that make a sale paid or
 * refunded, the buyer's download link, and the owner's list of sales.
 *
 * The checkout reads the item from the page's last published version as it shows now (the plan and
 * the schedule applied, like lead magnets, ADR 092): the price is the one the visitor saw, never one
 * the form sends; the link must still exist in the draft. A suspended account or page, an owner
 * whose plan no longer has payments, or a link no longer shown answers 410.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { platformFee } from "#core/connect.ts";
import type { PageLink } from "#core/model.ts";
import { chosenAmount, paidDownloadOf, PAYMENT_MESSAGES, tipConfigOf, type PayForm } from "#core/schemas/payments.ts";
import { hasFeature } from "#core/plans.ts";
import { visibleContentOf } from "#core/visible-content.ts";
import { newId } from "#db/ids.ts";
import { links, sales, userProfiles, users } from "#db/schema.ts";
import { planOf } from "#renderer/draft.ts";
import { lastPublishedSnapshot } from "#renderer/publish.ts";
import { pagesOrigin } from "../env.server.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { billingFor } from "./billing.ts";
import { connectAccountOf } from "./connect.ts";
import { planStateOf } from "./profile.ts";

export type SaleRow = typeof sales.$inferSelect;

const gone = (message: string = PAYMENT_MESSAGES.notAvailable) => new ApiError("gone", message);

/** Where the buyer lands after paying: the success page, which the sale's key opens. */
export const successUrl = (origin: string, sale: Pick<SaleRow, "id" | "receiptKey">) => `${origin}/pay/thanks?sale=${sale.id}&key=${sale.receiptKey}`;

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
