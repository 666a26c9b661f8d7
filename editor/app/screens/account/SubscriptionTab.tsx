/**
 * Subscription tab (docs/product.md sections 2, 4 and 8): the status badge (Active, Past Due, Cancelled, Lite),
 * the next billing date, the card on file, a past-due warning with Update Payment Method, the
 * two-step cancel flow (confirm, then an optional reason) and Resume, switching between monthly and
 * yearly billing at the next renewal (ADR 103), or Upgrade (monthly or yearly) for Lite. The
 * customer portal opens in a new tab; coming back to this tab reloads the state.
 */
import { AlertTriangle, CreditCard, Crown, FlaskConical } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { toast } from "../../toast.tsx";
import { CANCEL_REASONS } from "#core/limits.ts";
import { BADGE_VARIANT, BILLING_MESSAGES, PLUS_PLANS, PLUS_PRICE_LABEL, type BillingInterval, type SubscriptionBadge } from "#core/billing.ts";
import { PLAN_NAMES } from "#core/plans.ts";
import { api, clientErrorMessage, unwrap } from "../../api.ts";
import { Button } from "../../components/button.tsx";
import { Confirm, Modal } from "../../components/modal.tsx";
import { useDashboard } from "../../store.ts";
import { longDate } from "../../../components/dates.ts";
import { RadioCards } from "../appearance/RadioCards.tsx";
import { Badge, Panel, startCheckout } from "./billing-ui.tsx";

type View = Awaited<ReturnType<typeof loadView>>;
const loadView = () => unwrap(api.billing.subscription.$get());

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-slate-600">{term}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

function CancelFlow({ view, onDone }: { view: View; onDone(v: View): void }) {
  const [step, setStep] = useState<"closed" | "confirm" | "reason">("closed");
  const [reason, setReason] = useState<string>("");
  const [other, setOther] = useState("");
  const [busy, setBusy] = useState(false);
  const otherId = useId();
  // The reason dialog is opened from the confirmation's Continue, gone by the time it closes: the
  // focus goes back to Cancel Subscription.
  const opener = useRef<HTMLButtonElement>(null);
  const pastDue = view.badge === "Past Due";

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    setBusy(true);
    try {
      const json = reason ? { reason: reason as (typeof CANCEL_REASONS)[number], ...(reason === "Other" ? { otherText: other } : {}) } : {};
      const res = await unwrap(api.billing.cancel.$post({ json }));
      toast.success(res.message, {
        description: res.subscription.accessEndsAt ? `You keep Plinth Plus until ${longDate(res.subscription.accessEndsAt)}.` : "Your page now uses Plinth Lite.",
      });
      setStep("closed");
      onDone(res.subscription);
      void useDashboard.getState().loadMe();
    } catch (err) {
      toast.error(BILLING_MESSAGES.cancelFailed, { description: clientErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button ref={opener} variant="secondary" onClick={() => setStep("confirm")}>
        Cancel Subscription
      </Button>
      <Confirm
        open={step === "confirm"}
        onOpenChange={(o) => !o && setStep("closed")}
        title="Cancel your subscription?"
        description={
          pastDue
            ? "Your last payment failed, so cancelling ends Plinth Plus now and your page goes back to Plinth Lite."
            : `You keep every Plus feature until ${longDate(view.currentPeriodEndDate)}. After that your page uses Plinth Lite and you won't be charged again.`
        }
        cancel="Keep Subscription"
        confirm="Continue"
        danger
        onConfirm={() => {
          setReason("");
          setOther("");
          setStep("reason");
        }}
      />
      <Modal
        open={step === "reason"}
        onOpenChange={(o) => !o && !busy && setStep("closed")}
        dirty={reason !== "" || other !== ""}
        returnFocusTo={opener}
        title="Why are you cancelling?" description="Optional: it helps us make Plinth better.">
        <form onSubmit={submit} className="space-y-4">
          <RadioCards
            className=""
            legend="Reason for cancelling"
            legendHidden
            name="cancel-reason"
            columns="grid-cols-1"
            value={reason}
            options={CANCEL_REASONS.map((r) => ({ value: r, label: r }))}
            onChange={setReason}
          />
          {reason === "Other" ? (
            <div>
              <label htmlFor={otherId} className="mb-1 block text-sm font-medium">
                Tell us more
              </label>
              <textarea id={otherId} value={other} onChange={(e) => setOther(e.target.value)} maxLength={500} rows={3} className="w-full rounded-md border border-slate-300 px-3 py-2" />
            </div>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" disabled={busy} onClick={() => setStep("closed")}>
              Keep Subscription
            </Button>
            <Button type="submit" variant="danger" disabled={busy}>
              {busy ? "Cancelling..." : "Cancel Subscription"}
            </Button>
          </div>
        </form>
      </Modal>
    </>
  );
}

/** Monthly to yearly or back, from the next renewal: nothing is charged now. */
function IntervalSwitch({ view, onDone }: { view: View; onDone(v: View): void }) {
  const [open, setOpen] = useState(false);
  const to: BillingInterval = view.interval === "year" ? "month" : "year";
  const plan = PLUS_PLANS[to];
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      const res = await unwrap(api.billing.interval.$post({ json: { interval: to } }));
      setOpen(false);
      toast.success(res.message, { description: `From ${longDate(res.subscription.nextBillingDate)}: ${res.subscription.priceLabel}.` });
      onDone(res.subscription);
    } catch (err) {
      setOpen(false);
      toast.error(BILLING_MESSAGES.intervalFailed, { description: clientErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        {to === "year" ? "Switch to yearly billing" : "Switch to monthly billing"}
      </Button>
      <Confirm
        open={open}
        onOpenChange={(o) => !busy && setOpen(o)}
        busy={busy}
        title={to === "year" ? "Switch to yearly billing?" : "Switch to monthly billing?"}
        description={`From your next billing date, ${longDate(view.nextBillingDate)}, you'll pay ${plan.priceLabel}${to === "year" ? " (two months free)" : ""}. Nothing is charged now.`}
        cancel="Keep current billing"
        confirm={to === "year" ? "Switch to yearly" : "Switch to monthly"}
        onConfirm={() => void confirm()}
      />
    </>
  );
}

/** customer-portal: opened in a new tab. The tab is opened at once (a popup blocker allows that) and pointed at the portal when its address arrives. */
async function openPortal() {
  const tab = window.open("", "_blank");
  try {
    const { url } = await unwrap(api.billing.portal.$post());
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else window.location.assign(url);
  } catch (err) {
    tab?.close();
    toast.error(BILLING_MESSAGES.portalFailed, { description: clientErrorMessage(err) });
  }
}

export default function SubscriptionTab() {
  const me = useDashboard((s) => s.me);
  const [view, setView] = useState<View | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      setView(await loadView());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    void reload();
    // Back from the customer portal (another tab): show what changed there.
    const onVisible = () => document.visibilityState === "visible" && void reload().then(() => useDashboard.getState().loadMe().catch(() => undefined));
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [reload]);

  if (failed) {
    return (
      <div role="alert" className="max-w-xl rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
        {BILLING_MESSAGES.loadFailed}.{" "}
        <button type="button" className="font-medium underline" onClick={() => void reload()}>
          Try again
        </button>
      </div>
    );
  }
  if (!view) return <p className="text-slate-600">Loading...</p>;

  const badge = view.badge as SubscriptionBadge;
  const paying = badge !== "Lite" && badge !== "Trial Active";

  async function resume() {
    setBusy(true);
    try {
      const res = await unwrap(api.billing.resume.$post());
      setView(res.subscription);
      toast.success(res.message);
      void useDashboard.getState().loadMe();
    } catch (err) {
      toast.error(BILLING_MESSAGES.resumeFailed, { description: clientErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  async function upgrade(interval: BillingInterval) {
    setBusy(true);
    if (!(await startCheckout(interval))) setBusy(false);
  }

  return (
    <div className="max-w-2xl space-y-4">
      {view.testMode ? (
        <p className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          <FlaskConical aria-hidden className="mt-0.5 size-4 shrink-0" />
          Test mode: payments use test cards and no real money is charged.
        </p>
      ) : null}

      {badge === "Past Due" ? (
        <div role="alert" className="flex flex-col gap-3 rounded-lg border border-red-300 bg-red-50 p-4 text-red-950 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-start gap-2">
            <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0" />
            {BILLING_MESSAGES.pastDueWarning}
          </p>
          <Button onClick={() => void openPortal()} className="shrink-0">
            Update Payment Method
          </Button>
        </div>
      ) : null}

      <Panel
        id="subscription-title"
        title="Subscription"
        actions={
          <span className="flex items-center gap-2">
            <span className="sr-only">Status:</span>
            <Badge variant={BADGE_VARIANT[badge]}>{badge}</Badge>
          </span>
        }
      >
        <dl className="grid gap-3 sm:grid-cols-2">
          <Detail term="Plan">{paying ? PLAN_NAMES.plus : PLAN_NAMES.lite}</Detail>
          <Detail term="Price">{paying ? view.priceLabel : "Free"}</Detail>
          {badge === "Active" ? <Detail term="Next billing date">{longDate(view.nextBillingDate)}</Detail> : null}
          {badge === "Cancelled" ? <Detail term="Access ends on">{longDate(view.accessEndsAt)}</Detail> : null}
          {view.card ? (
            <div>
              <dt className="text-sm text-slate-600">Payment method</dt>
              <dd className="flex items-center gap-2 font-medium">
                <CreditCard aria-hidden className="size-4" />
                {view.card.brand} ending in {view.card.last4}
              </dd>
            </div>
          ) : null}
        </dl>

        {badge === "Cancelled" ? (
          <p className="mt-4 text-slate-700">
            Your subscription is cancelled. You keep every Plus feature until {longDate(view.accessEndsAt)}, and you won't be charged again.
          </p>
        ) : null}
        {!paying ? (
          <div className="mt-4 space-y-3">
            <p className="text-slate-700">
              {view.isTrialActive
                ? `You're trying Plinth Plus for free until ${longDate(view.trialEndsAt)}. Subscribe to keep every Plus feature after your trial; your paid month starts the day you subscribe.`
                : "You're on Plinth Lite. Upgrade for unlimited links and social icons, premium themes and fonts, scheduling, lead magnets, detailed analytics and the affiliate programme."}
            </p>
            <div className="flex flex-wrap gap-2">
              <Button onClick={() => void upgrade("month")} disabled={busy}>
                <Crown aria-hidden className="size-4" />
                {busy ? "Opening checkout..." : `Upgrade to Plinth Plus (${PLUS_PRICE_LABEL})`}
              </Button>
              <Button variant="secondary" onClick={() => void upgrade("year")} disabled={busy}>
                {`Upgrade to ${PLUS_PLANS.year.name} (${PLUS_PLANS.year.priceLabel}, two months free)`}
              </Button>
            </div>
          </div>
        ) : null}

        {paying ? (
          <div className="mt-5 flex flex-wrap gap-2">
            {badge !== "Past Due" ? (
              <Button variant="secondary" onClick={() => void openPortal()}>
                <CreditCard aria-hidden className="size-4" />
                Manage Payment Method
              </Button>
            ) : null}
            {badge === "Active" ? <IntervalSwitch view={view} onDone={setView} /> : null}
            {badge === "Cancelled" ? (
              <Button onClick={() => void resume()} disabled={busy}>
                {busy ? "Resuming..." : "Resume Subscription"}
              </Button>
            ) : (
              <CancelFlow view={view} onDone={setView} />
            )}
          </div>
        ) : null}
      </Panel>
      {me && view.payingSince && paying ? <p className="text-sm text-slate-600">Plinth Plus member since {longDate(view.payingSince)}.</p> : null}
    </div>
  );
}
