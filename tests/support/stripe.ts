/**
 * Stripe in tests. Stripe's servers cannot be reached from here, so a local HTTP server answers the
 * SDK's calls with bodies shaped as Stripe's API reference documents them (API version the SDK is
 * pinned to), keeps the subscriptions it was asked about, and records what the product sent: the
 * form parameters, the Idempotency-Key header and the key used. Webhook deliveries are signed with
 * the SDK's own test-header helper.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/** The API version the SDK is pinned to: the shapes below are that version's. */
const ApiVersion = Stripe.API_VERSION;

export const STRIPE_TEST_ENV = {
  BILLING_PROVIDER: "stripe",
  SELLER_NAME: "Plinth Test Seller Ltd",
  STRIPE_SECRET_KEY: "sk_test_51PlinthStandInKey000000000000",
  STRIPE_WEBHOOK_SECRET: "whsec_PlinthStandInWebhookSecret000",
  STRIPE_PRICE_MONTHLY: "price_1PlinthMonthly",
  STRIPE_PRICE_YEARLY: "price_1PlinthYearly",
} as const;

export interface RecordedCall {
  method: string;
  path: string;
  params: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  /** The Stripe-Account header: the connected account a call acts on (Connect). */
  stripeAccount: string | undefined;
}

const secs = (d: Date) => Math.floor(d.getTime() / 1000);
const DAY = 86_400;
let seq = 0;
const nextId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++seq).toString(36).padStart(6, "0")}`;

/** A price as GET /v1/prices/:id documents it: the yearly price recurs every year, any other monthly. */
export function stripePrice(id: string, created = secs(new Date())) {
  const interval = id === STRIPE_TEST_ENV.STRIPE_PRICE_YEARLY ? ("year" as const) : ("month" as const);
  return { id, object: "price" as const, active: true, billing_scheme: "per_unit", created, currency: "usd", livemode: false, lookup_key: null, metadata: {}, product: "prod_PlinthPlus", recurring: { interval, interval_count: 1, usage_type: "licensed" }, type: "recurring", unit_amount: interval === "year" ? 8990 : 899 };
}

/** An Express account as the API reference documents the `account` object (the fields the product reads, and their neighbours). */
export function stripeAccount(input: { id?: string; email: string | null; userId?: string; onboarded?: boolean; currentlyDue?: string[] }) {
  const onboarded = input.onboarded ?? false;
  const due = input.currentlyDue ?? (onboarded ? [] : ["business_type", "external_account", "tos_acceptance.date"]);
  return {
    id: input.id ?? nextId("acct"),
    object: "account" as const,
    business_type: null,
    capabilities: { card_payments: onboarded ? "active" : "inactive", transfers: onboarded ? "active" : "inactive" },
    charges_enabled: onboarded,
    controller: { type: "application", is_controller: true },
    country: "US",
    created: secs(new Date()),
    default_currency: "usd",
    details_submitted: onboarded,
    email: input.email,
    metadata: input.userId ? { userId: input.userId } : {},
    payouts_enabled: onboarded,
    requirements: { alternatives: [], current_deadline: null, currently_due: due, disabled_reason: onboarded ? null : "requirements.past_due", errors: [], eventually_due: due, past_due: [], pending_verification: [] },
    type: "express" as const,
  };
}
export type StripeAccountBody = ReturnType<typeof stripeAccount>;

/** A webhook endpoint as GET /v1/webhook_endpoints lists it (Stripe's OpenAPI `webhook_endpoint`). */
export function stripeWebhookEndpoint(input: { url: string; enabled_events: string[]; status?: "enabled" | "disabled"; id?: string }) {
  return {
    id: input.id ?? nextId("we"),
    object: "webhook_endpoint" as const,
    api_version: ApiVersion,
    application: null,
    created: secs(new Date()),
    description: null,
    enabled_events: input.enabled_events,
    livemode: false,
    metadata: {},
    status: input.status ?? "enabled",
    url: input.url,
  };
}
export type StripeWebhookEndpointBody = ReturnType<typeof stripeWebhookEndpoint>;

/** A subscription as GET /v1/subscriptions/:id documents it; the period lives on its one item. */
export function stripeSubscription(input: { id?: string; customer: string; status?: Stripe.Subscription.Status; start: number; end: number; cancelAtPeriodEnd?: boolean; price?: string; schedule?: string | null }) {
  const id = input.id ?? nextId("sub");
  const status = input.status ?? "active";
  const price = stripePrice(input.price ?? STRIPE_TEST_ENV.STRIPE_PRICE_MONTHLY, input.start);
  return {
    id,
    object: "subscription",
    application: null,
    billing_cycle_anchor: input.start,
    cancel_at: input.cancelAtPeriodEnd ? input.end : null,
    cancel_at_period_end: input.cancelAtPeriodEnd ?? false,
    canceled_at: input.cancelAtPeriodEnd || status === "canceled" ? input.start : null,
    collection_method: "charge_automatically",
    created: input.start,
    currency: "usd",
    customer: input.customer,
    default_payment_method: null,
    description: null,
    ended_at: status === "canceled" ? input.start + DAY : null,
    items: {
      object: "list",
      data: [
        {
          id: `si_${id.slice(4)}`,
          object: "subscription_item",
          created: input.start,
          current_period_start: input.start,
          current_period_end: input.end,
          metadata: {},
          price,
          quantity: 1,
          subscription: id,
        },
      ],
      has_more: false,
      total_count: 1,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    livemode: false,
    metadata: {},
    schedule: input.schedule ?? null,
    start_date: input.start,
    status,
    trial_end: null,
    trial_start: null,
  };
}
export type StripeSubscriptionBody = ReturnType<typeof stripeSubscription>;

/** An invoice as the API reference documents it: the subscription under parent, the period on the line. */
export function stripeInvoice(input: {
  id?: string;
  customer: string;
  subscription: string;
  status: "paid" | "open" | "void" | "uncollectible" | "draft";
  amount: number;
  start: number;
  end: number;
  reason?: "subscription_create" | "subscription_cycle";
  attemptCount?: number;
  nextAttempt?: number | null;
  number?: string;
}) {
  const id = input.id ?? nextId("in");
  const paid = input.status === "paid";
  return {
    id,
    object: "invoice",
    account_country: "US",
    amount_due: input.amount,
    amount_paid: paid ? input.amount : 0,
    amount_remaining: paid ? 0 : input.amount,
    attempt_count: input.attemptCount ?? 1,
    attempted: true,
    billing_reason: input.reason ?? "subscription_cycle",
    collection_method: "charge_automatically",
    created: input.start,
    currency: "usd",
    customer: input.customer,
    description: null,
    hosted_invoice_url: `https://invoice.stripe.com/i/acct_test/${id}`,
    invoice_pdf: `https://pay.stripe.com/invoice/acct_test/${id}/pdf`,
    lines: {
      object: "list",
      data: [
        {
          id: `il_${id.slice(3)}`,
          object: "line_item",
          amount: input.amount,
          currency: "usd",
          description: "1 × Plinth Plus (at $8.99 / month)",
          invoice: id,
          livemode: false,
          metadata: {},
          parent: {
            type: "subscription_item_details",
            invoice_item_details: null,
            subscription_item_details: { invoice_item: null, proration: false, proration_details: { credited_items: null }, subscription: input.subscription, subscription_item: `si_${input.subscription.slice(4)}` },
          },
          period: { start: input.start, end: input.end },
          quantity: 1,
          subscription: input.subscription,
        },
      ],
      has_more: false,
      total_count: 1,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    metadata: {},
    next_payment_attempt: input.nextAttempt ?? null,
    number: input.status === "draft" ? null : (input.number ?? `ABCD1234-${String(seq).padStart(4, "0")}`),
    parent: { type: "subscription_details", quote_details: null, subscription_details: { metadata: {}, subscription: input.subscription } },
    // An invoice's own period is the one before the line's (Stripe documents this for subscriptions).
    period_end: input.start,
    period_start: input.start - 30 * DAY,
    status: input.status,
    status_transitions: { finalized_at: input.start, marked_uncollectible_at: null, paid_at: paid ? input.start + 60 : null, voided_at: null },
    total: input.amount,
  };
}

export function stripeEvent(type: string, object: object, created: number, id = nextId("evt")) {
  return {
    id,
    object: "event",
    api_version: ApiVersion,
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** A body and the Stripe-Signature header for it, signed `at` (now unless said). */
export function signedDelivery(event: object, opts: { at?: Date; secret?: string } = {}) {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: opts.secret ?? STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
    timestamp: secs(opts.at ?? new Date()),
  });
  return { payload, header };
}

/** A subscription schedule as the API reference documents it (phases with their items and dates). */
export function stripeSchedule(input: { id?: string; subscription: string; customer: string; created: number; endBehavior?: string; phases: { price: string; start: number; end: number }[] }) {
  const first = input.phases[0]!;
  return {
    id: input.id ?? nextId("sub_sched"),
    object: "subscription_schedule" as const,
    application: null,
    billing_mode: { type: "classic" },
    canceled_at: null,
    completed_at: null,
    created: input.created,
    current_phase: { start_date: first.start, end_date: first.end } as { start_date: number; end_date: number } | null,
    customer: input.customer,
    customer_account: null,
    default_settings: { application_fee_percent: null, billing_cycle_anchor: "automatic", billing_thresholds: null, collection_method: "charge_automatically", default_payment_method: null, description: null, invoice_settings: { issuer: { type: "self" } }, on_behalf_of: null, transfer_data: null },
    end_behavior: input.endBehavior ?? "release",
    livemode: false,
    metadata: {},
    pause_schedules: [],
    phases: input.phases.map((p) => ({
      add_invoice_items: [],
      application_fee_percent: null,
      billing_cycle_anchor: null,
      billing_thresholds: null,
      collection_method: null,
      currency: "usd",
      default_payment_method: null,
      default_tax_rates: [],
      description: null,
      discounts: [],
      end_date: p.end,
      invoice_settings: null,
      items: [{ billing_thresholds: null, discounts: [], metadata: {}, plan: p.price, price: p.price, quantity: 1, tax_rates: [] }],
      metadata: {},
      on_behalf_of: null,
      proration_behavior: "create_prorations",
      start_date: p.start,
      transfer_data: null,
      trial_end: null,
    })),
    released_at: null as number | null,
    released_subscription: null as string | null,
    status: "active" as "active" | "released" | "canceled" | "completed" | "not_started",
    subscription: input.subscription as string | null,
    test_clock: null,
  };
}
export type StripeScheduleBody = ReturnType<typeof stripeSchedule>;

/**
 * The phases of a schedule update as the form parameters carry them: each phase's first item's
 * price, and its end as end_date or as a duration after the phase before it.
 */
function phasesFrom(params: Record<string, string>): { price: string; start: number; end: number }[] {
  const phases: { price: string; start: number; end: number }[] = [];
  for (let i = 0; params[`phases[${i}][items][0][price]`]; i++) {
    const start = Number(params[`phases[${i}][start_date]`] ?? phases[i - 1]?.end);
    const unit = params[`phases[${i}][duration][interval]`];
    const count = Number(params[`phases[${i}][duration][interval_count]`] ?? 1);
    const end = params[`phases[${i}][end_date]`] ? Number(params[`phases[${i}][end_date]`]) : start + count * (unit === "year" ? 365 : unit === "month" ? 30 : unit === "week" ? 7 : 1) * DAY;
    phases.push({ price: params[`phases[${i}][items][0][price]`]!, start, end });
  }
  return phases;
}

export interface StripeStandIn {
  base: string;
  calls: RecordedCall[];
  subscriptions: Map<string, StripeSubscriptionBody>;
  /**
   * Signs an event of `type` about `object` (created now) as Stripe does and posts it to the
   * webhook URL the stand-in was started with; resolves with the route's status.
   */
  deliver(type: string, object: object): Promise<number>;
  /** Answers the next call with Stripe's error body and this status. */
  failNext(status: number, path?: RegExp): void;
  schedules: Map<string, StripeScheduleBody>;
  /** What GET /v1/webhook_endpoints lists, oldest first (none until a test adds some). */
  webhookEndpoints: StripeWebhookEndpointBody[];
  /** Fields a test changes on a price GET /v1/prices/:id answers (its currency, its amount). */
  priceChanges: Map<string, Partial<ReturnType<typeof stripePrice>>>;
  /** The Connect accounts made (POST /v1/accounts); a test changes one as Stripe would after onboarding. */
  accounts: Map<string, StripeAccountBody>;
  close(): Promise<void>;
}

function stripeError(res: import("node:http").ServerResponse, status: number, message: string, type = "invalid_request_error") {
  res.writeHead(status, { "Content-Type": "application/json", "Request-Id": nextId("req") });
  res.end(JSON.stringify({ error: { type, message, request_log_url: "https://dashboard.stripe.com/test/logs/req_x" } }));
}

/** The stand-in's Checkout page: what is bought, and a Pay button that completes the session. */
function checkoutPage(sessionId: string, price: ReturnType<typeof stripePrice>, email: string | null) {
  const amount = `$${(price.unit_amount / 100).toFixed(2)}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Checkout</title></head>
<body><main><h1>Subscribe to Plinth Plus</h1><p>${amount} per ${price.recurring.interval}${email ? ` for ${email.replace(/[<>&"]/g, "")}` : ""}</p>
<form method="post" action="/c/pay/${encodeURIComponent(sessionId)}"><button type="submit">Pay ${amount}</button></form></main></body></html>`;
}

/**
 * The stand-in answers the SDK's calls. With `webhookUrl`, Checkout's `url` is a page of its own
 * whose Pay button completes the session as Stripe does: the subscription is made, and
 * checkout.session.completed, customer.subscription.created and invoice.paid are signed and posted
 * to `webhookUrl` before the browser is sent to the session's success_url.
 */
export async function startStripeStandIn(opts: { webhookUrl?: string } = {}): Promise<StripeStandIn> {
  let base = "";
  const calls: RecordedCall[] = [];
  const subscriptions = new Map<string, StripeSubscriptionBody>();
  const customers = new Map<string, object>();
  const accounts = new Map<string, StripeAccountBody>();
  const sessions = new Map<string, { id: string; customer: string | null; success_url: string; status: string } & Record<string, unknown>>();
  /** The price each Checkout Session sells (its line item, which Stripe lists under /line_items). */
  const sessionPrices = new Map<string, string>();
  let failWith: { status: number; path?: RegExp } | null = null;
  const schedules = new Map<string, StripeScheduleBody>();
  const webhookEndpoints: StripeWebhookEndpointBody[] = [];
  const priceChanges = new Map<string, Partial<ReturnType<typeof stripePrice>>>();
  const deliver = async (type: string, object: object) => {
    if (!opts.webhookUrl) throw new Error("the stand-in was started without a webhook URL");
    // Stripe stamps an event in whole seconds when the change happens, before it is delivered: the
    // second before this one, so an answer the dashboard gets afterwards is never older than it.
    const { payload, header } = signedDelivery(stripeEvent(type, object, secs(new Date()) - 1));
    const res = await fetch(opts.webhookUrl, { method: "POST", body: payload, headers: { "Content-Type": "application/json", "Stripe-Signature": header } });
    await res.arrayBuffer();
    return res.status;
  };
  /** Pay pressed: the session completes and Stripe's events for it go to the webhook, in the order Stripe sends them. */
  const pay = async (session: NonNullable<ReturnType<typeof sessions.get>>) => {
    const now = secs(new Date());
    const price = stripePrice(sessionPrices.get(session.id)!, now);
    const sub = stripeSubscription({ customer: session.customer!, start: now, end: now + (price.recurring.interval === "year" ? 365 : 30) * DAY, price: price.id });
    subscriptions.set(sub.id, sub);
    Object.assign(session, { status: "complete", payment_status: "paid", subscription: sub.id });
    const invoice = stripeInvoice({ customer: sub.customer, subscription: sub.id, status: "paid", amount: price.unit_amount, start: now, end: sub.items.data[0]!.current_period_end, reason: "subscription_create" });
    for (const [type, object] of [["checkout.session.completed", session], ["customer.subscription.created", sub], ["invoice.paid", invoice]] as const) {
      const status = await deliver(type, object);
      if (status !== 200) throw new Error(`the webhook answered ${type} with ${status}`);
    }
  };
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stand-in");
      const params = Object.fromEntries(new URLSearchParams(req.method === "GET" || req.method === "DELETE" ? url.search : raw));
      const key = req.headers["idempotency-key"];
      const onAccount = req.headers["stripe-account"];
      calls.push({ method: req.method ?? "", path: url.pathname, params, idempotencyKey: typeof key === "string" ? key : undefined, authorization: req.headers.authorization, stripeAccount: typeof onAccount === "string" ? onAccount : undefined });
      if (failWith && (!failWith.path || failWith.path.test(url.pathname))) {
        const { status } = failWith;
        failWith = null;
        if (status === 401) {
          // Stripe's answer to a wrong key names it masked to its last four characters.
          const key = (req.headers.authorization ?? "").replace(/^Bearer /, "");
          return stripeError(res, 401, `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}`);
        }
        return stripeError(res, status, "Your card was declined.", "card_error");
      }
      const send = (body: object) => {
        res.writeHead(200, { "Content-Type": "application/json", "Request-Id": nextId("req"), "Stripe-Version": ApiVersion });
        res.end(JSON.stringify(body));
      };
      const now = secs(new Date());
      const path = url.pathname;
      let m: RegExpMatchArray | null;
      if ((m = path.match(/^\/c\/pay\/([^/]+)$/)) && opts.webhookUrl) {
        const session = sessions.get(decodeURIComponent(m[1]!));
        if (!session || session.status !== "open") return stripeError(res, 404, "This Checkout Session is no longer available.");
        if (req.method === "GET") {
          res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
          return res.end(checkoutPage(session.id, stripePrice(sessionPrices.get(session.id)!, now), (customers.get(session.customer ?? "") as { email?: string } | undefined)?.email ?? null));
        }
        return void pay(session).then(
          () => {
            res.writeHead(303, { Location: session.success_url });
            res.end();
          },
          (err: Error) => stripeError(res, 502, err.message, "api_error"),
        );
      }
      // Connect (ADR 230): Express accounts, their Account Links and Login Links.
      if (req.method === "POST" && path === "/v1/accounts") {
        const account = stripeAccount({ email: params.email ?? null, userId: params["metadata[userId]"] });
        accounts.set(account.id, account);
        return send(account);
      }
      if ((m = path.match(/^\/v1\/accounts\/(acct_[^/]+)$/)) && req.method === "GET") {
        const account = accounts.get(m[1]!);
        return account ? send(account) : stripeError(res, 404, `No such account: '${m[1]}'`);
      }
      if ((m = path.match(/^\/v1\/accounts\/(acct_[^/]+)\/login_links$/)) && req.method === "POST") {
        const account = accounts.get(m[1]!);
        if (!account) return stripeError(res, 404, `No such account: '${m[1]}'`);
        if (!account.details_submitted) return stripeError(res, 400, "Cannot create a login link for an account that has not completed onboarding.");
        return send({ object: "login_link", created: now, url: `https://connect.stripe.com/express/${nextId("Ln")}` });
      }
      if (req.method === "POST" && path === "/v1/account_links") {
        if (!accounts.has(params.account ?? "")) return stripeError(res, 400, `No such account: '${params.account}'`);
        return send({ object: "account_link", created: now, expires_at: now + 300, url: `https://connect.stripe.com/setup/e/${params.account}/${nextId("x")}` });
      }
      if (req.method === "POST" && path === "/v1/customers") {
        const customer = { id: nextId("cus"), object: "customer", balance: 0, created: now, currency: null, email: params.email ?? null, livemode: false, metadata: { userId: params["metadata[userId]"] } };
        customers.set(customer.id, customer);
        return send(customer);
      }
      if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const id = nextId("cs_test");
        const session = {
          id,
          object: "checkout.session",
          cancel_url: params.cancel_url,
          client_reference_id: params.client_reference_id ?? null,
          created: now,
          customer: params.customer ?? null,
          expires_at: now + DAY,
          livemode: false,
          metadata: {},
          mode: params.mode,
          payment_status: "unpaid",
          status: "open",
          subscription: null,
          success_url: params.success_url!,
          url: opts.webhookUrl ? `${base}/c/pay/${id}` : `https://checkout.stripe.com/c/pay/${id}`,
        };
        sessions.set(id, session);
        sessionPrices.set(id, params["line_items[0][price]"] ?? STRIPE_TEST_ENV.STRIPE_PRICE_MONTHLY);
        return send(session);
      }
      if (req.method === "GET" && (m = path.match(/^\/v1\/prices\/([^/]+)$/))) return send({ ...stripePrice(m[1]!, now), ...priceChanges.get(m[1]!) });
      if (req.method === "GET" && path === "/v1/webhook_endpoints") {
        // A list page as documented: newest first, `limit` (default 10) after `starting_after`.
        const all = [...webhookEndpoints].reverse();
        const from = params.starting_after ? all.findIndex((e) => e.id === params.starting_after) + 1 : 0;
        const limit = Number(params.limit ?? 10);
        const data = all.slice(from, from + limit);
        return send({ object: "list", data, has_more: from + limit < all.length, url: "/v1/webhook_endpoints" });
      }
      if ((m = path.match(/^\/v1\/customers\/(cus_[^/]+)$/))) {
        const customer = customers.get(m[1]!);
        if (!customer) return stripeError(res, 404, `No such customer: '${m[1]}'`);
        if (req.method === "GET") return send(customer);
        if (req.method === "DELETE") {
          customers.delete(m[1]!);
          return send({ id: m[1], object: "customer", deleted: true });
        }
      }
      if (req.method === "GET" && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
        const session = sessions.get(m[1]!);
        return session ? send(session) : stripeError(res, 404, `No such checkout.session: '${m[1]}'`);
      }
      if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
        return send({ id: nextId("bps"), object: "billing_portal.session", created: now, customer: params.customer, livemode: false, return_url: params.return_url, url: `https://billing.stripe.com/p/session/test_${nextId("x")}` });
      }
      if ((m = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
        const sub = subscriptions.get(m[1]!);
        if (!sub) return stripeError(res, 404, `No such subscription: '${m[1]}'`);
        if (req.method === "GET") return send(sub);
        if (req.method === "POST" && params.cancel_at_period_end) {
          if (sub.schedule) return stripeError(res, 400, `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`);
          const cancel = params.cancel_at_period_end === "true";
          const next = { ...sub, cancel_at_period_end: cancel, cancel_at: cancel ? sub.items.data[0]!.current_period_end : null, canceled_at: cancel ? now : null };
          subscriptions.set(sub.id, next);
          return send(next);
        }
        if (req.method === "DELETE") {
          const next = { ...sub, status: "canceled" as const, canceled_at: now, ended_at: now };
          subscriptions.set(sub.id, next);
          return send(next);
        }
      }
      if (req.method === "POST" && path === "/v1/subscription_schedules") {
        const sub = subscriptions.get(params.from_subscription ?? "");
        if (!sub) return stripeError(res, 400, `No such subscription: '${params.from_subscription}'`);
        if (sub.schedule) return stripeError(res, 400, `You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`);
        const item = sub.items.data[0]!;
        const schedule = stripeSchedule({ subscription: sub.id, customer: sub.customer, created: now, phases: [{ price: item.price.id, start: item.current_period_start, end: item.current_period_end }] });
        schedules.set(schedule.id, schedule);
        subscriptions.set(sub.id, { ...sub, schedule: schedule.id });
        return send(schedule);
      }
      if ((m = path.match(/^\/v1\/subscription_schedules\/([^/]+)(\/release)?$/))) {
        const schedule = schedules.get(m[1]!);
        if (!schedule) return stripeError(res, 404, `No such subscription_schedule: '${m[1]}'`);
        if (req.method === "GET" && !m[2]) return send(schedule);
        if (req.method !== "POST") return stripeError(res, 404, `Unrecognized request URL (${req.method}: ${path}).`);
        if (schedule.status !== "active" && schedule.status !== "not_started") {
          return stripeError(res, 400, `You cannot ${m[2] ? "release" : "update"} a subscription schedule that is currently in the \`${schedule.status}\` status.`);
        }
        const sub = subscriptions.get(schedule.subscription!)!;
        if (m[2]) {
          const released = { ...schedule, status: "released" as const, released_at: now, released_subscription: schedule.subscription, subscription: null, current_phase: null };
          schedules.set(schedule.id, released);
          subscriptions.set(sub.id, { ...sub, schedule: null });
          return send(released);
        }
        const phases = phasesFrom(params);
        if (phases.length === 0) return send(schedule);
        if (phases[0]!.start !== schedule.current_phase!.start_date) return stripeError(res, 400, "You can not modify the start date of the current phase.");
        const updated = stripeSchedule({ ...schedule, customer: schedule.customer, subscription: sub.id, endBehavior: params.end_behavior, phases });
        schedules.set(schedule.id, updated);
        return send(updated);
      }
      if (req.method === "POST" && (m = path.match(/^\/v1\/customers\/([^/]+)\/balance_transactions$/))) {
        return send({ id: nextId("cbtxn"), object: "customer_balance_transaction", amount: Number(params.amount), created: now, credit_note: null, currency: params.currency, customer: m[1], description: params.description ?? null, ending_balance: Number(params.amount), invoice: null, livemode: false, metadata: {}, type: "adjustment" });
      }
      return stripeError(res, 404, `Unrecognized request URL (${req.method}: ${path}).`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    base,
    calls,
    subscriptions,
    deliver,
    schedules,
    webhookEndpoints,
    priceChanges,
    accounts,
    failNext(status, path) {
      failWith = { status, path };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
