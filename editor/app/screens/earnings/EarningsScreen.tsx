/**
 * Earnings (/dashboard/earnings; ADR 230, 234): "Get paid" connects the owner's Stripe Express
 * account, shows its state in words, opens the Express dashboard (payouts, tax forms) and states the
 * operator's fee; the Sales section lists what visitors paid. Connect onboarding returns here
 * (?connect=return). Lite owners see the upgrade panel: tips and paid downloads are Plus
 * (core/features.ts, "creator_payments").
 */
import { Check, Crown, ExternalLink, X } from "lucide-react";
import { lazy, startTransition, Suspense, useCallback, useEffect, useState } from "react";
import { CONNECT_MESSAGES, type ConnectState } from "#core/connect.ts";
import { PLUS_PRICE_LABEL } from "#core/plus-price.ts";
import { api, ApiFailure, unwrap } from "../../api.ts";
import { Button } from "../../components/button.tsx";
import { toast } from "../../toast.tsx";
import { useDashboard } from "../../store.ts";
import { LoadFailed } from "../LoadFailed.tsx";
import { ScreenHeader } from "../ScreenHeader.tsx";

// The sales table, its CSV and resend load with the screen's second part (ADR 236).
const SalesSection = lazy(() => import("./SalesSection.tsx"));

type Account = Awaited<ReturnType<typeof loadAccount>>;
const loadAccount = () => unwrap(api.connect.account.$get());

/** What each state means for the owner, under its name. */
const STATE_TEXTS: Record<ConnectState, string> = {
  not_connected: "Connect a Stripe account to take tips and sell downloads on your page. Stripe pays you directly.",
  details_needed: "Stripe needs more details before you can take payments. Continue where you left off.",
  pending: "Stripe is checking your details. Your page takes payments as soon as Stripe enables them.",
  enabled: "Your page takes tips and sells downloads.",
};

function Condition({ ok, children }: { ok: boolean; children: string }) {
  return (
    <li className="flex items-center gap-2">
      {ok ? <Check aria-hidden className="size-4 text-green-700" /> : <X aria-hidden className="size-4 text-slate-500" />}
      <span>{children}</span>
      <span className="sr-only">{ok ? "(yes)" : "(not yet)"}</span>
    </li>
  );
}

function UpgradePanel() {
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  return (
    <section aria-labelledby="earnings-upgrade" className="max-w-2xl rounded-lg border-2 border-amber-300 bg-amber-50 p-6">
      <h2 id="earnings-upgrade" className="flex items-center gap-2 text-xl font-bold">
        <Crown aria-hidden className="size-5 text-amber-700" /> Tips and paid downloads are a Plinth Plus feature
      </h2>
      <p className="mt-2 text-slate-800">Let visitors tip you or buy your downloads through Stripe, paid straight into your own Stripe account.</p>
      <Button className="mt-4" onClick={() => openUpgrade("creator_payments")}>
        Upgrade to Plinth Plus ({PLUS_PRICE_LABEL})
      </Button>
    </section>
  );
}

function GetPaid({ account }: { account: Account }) {
  const [busy, setBusy] = useState<"onboarding" | "dashboard" | null>(null);
  async function go(kind: "onboarding" | "dashboard") {
    setBusy(kind);
    try {
      const { url } = await unwrap(kind === "onboarding" ? api.connect.onboarding.$post() : api.connect.dashboard.$post());
      window.location.assign(url);
    } catch (err) {
      toast.error(kind === "onboarding" ? CONNECT_MESSAGES.onboardingFailed : CONNECT_MESSAGES.dashboardFailed, {
        description: err instanceof ApiFailure && err.status > 0 && err.status < 500 ? err.message : undefined,
      });
      setBusy(null);
    }
  }
  const connected = account.state !== "not_connected";
  return (
    <section aria-labelledby="get-paid" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id="get-paid" className="text-lg font-semibold">
        {CONNECT_MESSAGES.getPaid}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Stripe account: <strong data-testid="connect-state">{account.label}</strong>
      </p>
      <p className="mt-1 max-w-prose text-sm text-slate-600">{STATE_TEXTS[account.state]}</p>
      {connected ? (
        <ul className="mt-3 space-y-1 text-sm" aria-label="Your Stripe account">
          <Condition ok={account.detailsSubmitted}>Details sent to Stripe</Condition>
          <Condition ok={account.chargesEnabled}>Can take payments</Condition>
          <Condition ok={account.payoutsEnabled}>Can receive payouts</Condition>
        </ul>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-2">
        {account.state === "not_connected" || account.state === "details_needed" ? (
          <Button onClick={() => void go("onboarding")} disabled={busy !== null}>
            {account.state === "not_connected" ? "Connect with Stripe" : "Continue setup on Stripe"}
          </Button>
        ) : null}
        {account.detailsSubmitted ? (
          <Button variant="secondary" onClick={() => void go("dashboard")} disabled={busy !== null}>
            Open Stripe dashboard <ExternalLink aria-hidden className="ml-1 inline size-4" />
          </Button>
        ) : null}
      </div>
      {account.detailsSubmitted ? <p className="mt-2 text-xs text-slate-600">Payouts, bank details and tax forms are in your Stripe dashboard.</p> : null}
      <p className="mt-4 border-t border-slate-100 pt-3 text-sm text-slate-700" data-testid="platform-fee">
        Plinth keeps {account.feePercent}% of each tip and sale. Stripe's own processing fee comes out of your share.
        {account.testMode ? " Test mode: no real money moves." : ""}
      </p>
    </section>
  );
}

export default function EarningsScreen() {
  const me = useDashboard((s) => s.me)!;
  const allowed = (me.plan.features as readonly string[]).includes("creator_payments");
  const [account, setAccount] = useState<Account | null>(null);
  const [failed, setFailed] = useState(false);
  const [returned] = useState(() => new URLSearchParams(window.location.search).get("connect") === "return");

  const load = useCallback(async () => {
    setFailed(false);
    try {
      const next = await loadAccount();
      // A transition: React draws the account in slices, leaving the page free meanwhile.
      startTransition(() => setAccount(next));
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    if (allowed) void load();
  }, [allowed, load]);
  useEffect(() => {
    // Back from Stripe: the address loses its ?connect=, so a reload does not say so again.
    if (returned) window.history.replaceState(window.history.state, "", window.location.pathname);
  }, [returned]);

  return (
    <div className="mx-auto max-w-4xl">
      <ScreenHeader path="/dashboard/earnings" />
      <div className="mt-6 space-y-6">
        {!allowed ? (
          <UpgradePanel />
        ) : failed ? (
          <LoadFailed role="alert" text="Your earnings could not be loaded." onRetry={() => void load()} />
        ) : !account ? (
          <p role="status" className="text-slate-600">
            Loading...
          </p>
        ) : (
          <>
            {returned ? (
              <p role="status" className="rounded-md bg-brand-50 px-4 py-3 text-sm text-brand-900">
                Back from Stripe. Your account: {account.label}.
              </p>
            ) : null}
            <GetPaid account={account} />
            <Suspense fallback={<p className="text-slate-600">Loading sales...</p>}>
              <SalesSection />
            </Suspense>
          </>
        )}
      </div>
    </div>
  );
}
