/**
 * Affiliate Program (/dashboard/affiliate; docs/product.md sections 1, 2, 3 and 9). Lite owners see an upgrade
 * panel. Plus owners (and the trial) get four tabs: Overview (balance, active referrals, the referral
 * link, this month's and total earnings, Promote & Earn), Detailed Earnings (one row per month),
 * Balance & Payouts (eligibility with each condition, cash payout, renew with balance, history) and
 * Program Terms.
 */
import { Tabs } from "radix-ui";
import { Check, Copy, Crown, Gift, Share2, Wallet, X } from "lucide-react";
import { lazy, startTransition, Suspense, useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { LIMITS } from "#core/limits.ts";
import { AFFILIATE_MESSAGES, payoutBadgeVariant, renewalMonthOptions } from "#core/affiliate.ts";
import { formatMoney, PLUS_PRICE, PLUS_PRICE_LABEL } from "#core/billing.ts";
import { api, unwrap } from "../../api.ts";
import { Button } from "../../components/button.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { isLite, useDashboard } from "../../store.ts";
import { longDate, monthOfKey, shortDate } from "../../../components/dates.ts";
import { Badge, ScrollTable } from "../account/billing-ui.tsx";
import { COMMISSION_PERCENT, copyText, MIN_PAYOUT, PAYOUT_FEE_PERCENT, tabClass } from "./affiliate-ui.ts";
import { ScreenHeader } from "../ScreenHeader.tsx";

// The Balance & Payouts tab's dialogs load with the tab, the share dialog when first opened (ADR 131).
const PayoutDialog = lazy(() => import("./BalanceDialogs.tsx").then((m) => ({ default: m.PayoutDialog })));
const RenewDialog = lazy(() => import("./BalanceDialogs.tsx").then((m) => ({ default: m.RenewDialog })));
const ShareDialog = lazy(() => import("./ShareDialog.tsx").then((m) => ({ default: m.ShareDialog })));

async function loadAll() {
  const [dashboard, earnings, eligibility, payouts] = await Promise.all([
    unwrap(api.affiliate.dashboard.$get()),
    unwrap(api.affiliate.earnings.$get()),
    unwrap(api.affiliate.eligibility.$get()),
    unwrap(api.affiliate.payouts.$get()),
  ]);
  return { dashboard, months: earnings.months, eligibility, payouts: payouts.payouts };
}
type Data = Awaited<ReturnType<typeof loadAll>>;

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tabular-nums">{value}</dd>
      {hint ? <dd className="mt-1 text-xs text-slate-600">{hint}</dd> : null}
    </div>
  );
}

function UpgradePanel() {
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  return (
    <section aria-labelledby="affiliate-upgrade" className="max-w-2xl rounded-lg border-2 border-amber-300 bg-amber-50 p-6">
      <h2 id="affiliate-upgrade" className="flex items-center gap-2 text-xl font-bold">
        <Crown aria-hidden className="size-5 text-amber-700" /> Promote & Earn is a Plinth Plus feature
      </h2>
      <p className="mt-2 text-slate-800">
        Share your referral link and earn {COMMISSION_PERCENT} commission on every payment from the people you refer. Use your earnings to pay for your own
        subscription, or cash them out via PayPal.
      </p>
      <Button className="mt-4" onClick={() => openUpgrade("affiliate_program")}>
        Upgrade to Plinth Plus ({PLUS_PRICE_LABEL})
      </Button>
    </section>
  );
}

function Condition({ ok, children }: { ok: boolean; children: string }) {
  return (
    <li className="flex items-center gap-2">
      {ok ? <Check aria-hidden className="size-4 text-green-700" /> : <X aria-hidden className="size-4 text-red-700" />}
      <span>{children}</span>
      <span className="sr-only">{ok ? "(met)" : "(not met yet)"}</span>
    </li>
  );
}

function Overview({ data, onShare }: { data: Data; onShare(): void }) {
  const d = data.dashboard;
  const me = useDashboard((s) => s.me);
  return (
    <div className="space-y-6">
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Rewards Balance" value={formatMoney(d.rewardsBalanceCents)} />
        <Stat label="Active Referrals" value={String(d.totalActiveReferrals)} hint={`${d.totalReferrals} signed up in total`} />
        <Stat label="This Month's Earnings" value={formatMoney(d.monthlyEarningsCents)} />
        <Stat label="Total Earnings" value={formatMoney(d.totalEarningsCents)} />
      </dl>

      <section aria-labelledby="referral-link-title" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="referral-link-title" className="text-lg font-semibold">
          Your referral link
        </h2>
        <div className="mt-3 flex flex-col gap-2 sm:flex-row">
          <label htmlFor="referral-url" className="sr-only">
            Referral link
          </label>
          <input id="referral-url" readOnly value={d.referralUrl} className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm" onFocus={(e) => e.target.select()} />
          <Button variant="secondary" onClick={() => void copyText(d.referralUrl, AFFILIATE_MESSAGES.linkCopied)}>
            <Copy aria-hidden className="size-4" /> Copy Link
          </Button>
          <Button onClick={onShare}>
            <Share2 aria-hidden className="size-4" /> Share
          </Button>
        </div>
      </section>

      <section aria-labelledby="promote-title" className="rounded-lg border border-brand-100 bg-brand-50 p-4 sm:p-6">
        <h2 id="promote-title" className="flex items-center gap-2 text-lg font-semibold">
          <Gift aria-hidden className="size-5" /> Promote & Earn
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-800">
          <li>Earn {COMMISSION_PERCENT} commission on every payment from people who subscribe through your link, for as long as they pay.</li>
          <li>Use your earnings for your own subscription: {PLUS_PRICE} a month comes straight out of your balance.</li>
          <li>
            Or cash out via PayPal from {MIN_PAYOUT} ({PAYOUT_FEE_PERCENT} fee, 3-5 business days).
          </li>
        </ul>
        {me?.plan.canSavePromoteLink ? (
          <p className="mt-3 text-sm">
            Add a Promote & Earn button to your page from{" "}
            <Link to="/dashboard/links" className="font-medium text-brand-700 underline underline-offset-4">
              Page Layout
            </Link>
            .
          </p>
        ) : null}
      </section>
    </div>
  );
}

function DetailedEarnings({ data, onShare }: { data: Data; onShare(): void }) {
  if (data.months.length === 0) {
    return (
      <EmptyState
        icon={Gift}
        title="No referrals yet"
        text={<>No earnings yet. Share your referral link: every payment from someone you refer earns you {COMMISSION_PERCENT}.</>}
        action={
          <Button onClick={onShare}>
            <Share2 aria-hidden className="size-4" /> Share your referral link
          </Button>
        }
      />
    );
  }
  return (
    <ScrollTable
      caption="Earnings per month, newest first"
      minWidth="min-w-[40rem]"
      head={
        <>
          <th scope="col" className="px-4 py-2 font-medium sm:px-2">Month</th>
          <th scope="col" className="px-2 py-2 text-right font-medium">Monthly referral payments</th>
          <th scope="col" className="px-2 py-2 text-right font-medium">Annual referral payments</th>
          <th scope="col" className="px-2 py-2 text-right font-medium">Monthly commission</th>
          <th scope="col" className="px-2 py-2 text-right font-medium">Annual commission</th>
          <th scope="col" className="px-2 py-2 text-right font-medium">Total commission</th>
        </>
      }
    >
      {data.months.map((r) => (
        <tr key={r.monthYear} className="border-b border-slate-100 last:border-0">
          <th scope="row" className="px-4 py-2 font-medium sm:px-2">{monthOfKey(r.monthYear)}</th>
          <td className="px-2 py-2 text-right tabular-nums">{r.monthlyRefPayments}</td>
          <td className="px-2 py-2 text-right tabular-nums">{r.annualRefPayments}</td>
          <td className="px-2 py-2 text-right tabular-nums">{formatMoney(r.monthlyCommissionCents)}</td>
          <td className="px-2 py-2 text-right tabular-nums">{formatMoney(r.annualCommissionCents)}</td>
          <td className="px-2 py-2 text-right font-semibold tabular-nums">{formatMoney(r.totalCommissionCents)}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}

const STATUS_LABEL: Record<string, string> = { pending: "Pending", processing: "Processing", completed: "Completed", failed: "Failed", rejected: "Rejected" };

function BalanceAndPayouts({ data, reload }: { data: Data; reload(): void }) {
  const me = useDashboard((s) => s.me);
  const [payoutOpen, setPayoutOpen] = useState(false);
  const [renewOpen, setRenewOpen] = useState(false);
  const e = data.eligibility;
  const balance = data.dashboard.rewardsBalanceCents;
  const canRenew = !!me?.plan.isPayingPlus && renewalMonthOptions(balance).length > 0;
  const done = () => {
    reload();
    void useDashboard.getState().loadMe();
  };
  return (
    <div className="space-y-6">
      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="balance-title" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
          <h2 id="balance-title" className="flex items-center gap-2 text-lg font-semibold">
            <Wallet aria-hidden className="size-5" /> Rewards balance
          </h2>
          <p className="mt-2 text-3xl font-bold tabular-nums">{formatMoney(balance)}</p>
          <h3 className="mt-4 font-medium">Renew with your balance</h3>
          <p className="mt-1 text-sm text-slate-700">
            Pay for your own Plinth Plus at {PLUS_PRICE} a month (needs at least {PLUS_PRICE} and a Plus subscription).
          </p>
          <Button className="mt-3" variant="secondary" disabled={!canRenew} onClick={() => setRenewOpen(true)}>
            Renew with Balance
          </Button>
        </section>

        <section aria-labelledby="payout-title" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
          <h2 id="payout-title" className="text-lg font-semibold">
            Cash payout
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            Via PayPal within 3-5 business days, {PAYOUT_FEE_PERCENT} processing fee.
          </p>
          <ul className="mt-3 space-y-1 text-sm" aria-label="Payout eligibility">
            <Condition ok={e.isActivePlus}>Active Plus subscription</Condition>
            <Condition ok={e.hasThreeMonthsPaying}>{`${LIMITS.PAYOUT_MIN_PAYING_MONTHS}+ continuous paying months`}</Condition>
            <Condition ok={e.hasMinimumBalance}>{`Balance of at least ${MIN_PAYOUT}`}</Condition>
          </ul>
          <p className="mt-3 text-sm">
            {e.isEligible ? `You can withdraw up to ${formatMoney(e.eligibleAmountCents)}.` : "You're not eligible for a cash payout yet."}
          </p>
          <Button className="mt-3" disabled={!e.isEligible} onClick={() => setPayoutOpen(true)}>
            Request Cash Payout
          </Button>
        </section>
      </div>

      <section aria-labelledby="payout-history-title">
        <h2 id="payout-history-title" className="text-lg font-semibold">
          Payout history
        </h2>
        {data.payouts.length === 0 ? (
          <p className="mt-2 text-slate-700">No payout requests yet.</p>
        ) : (
          <ScrollTable
            caption="Your payout requests, newest first"
            minWidth="min-w-[36rem]"
            className="mt-2"
            head={
              <>
                <th scope="col" className="px-4 py-2 font-medium sm:px-2">Date</th>
                <th scope="col" className="px-2 py-2 text-right font-medium">Requested</th>
                <th scope="col" className="px-2 py-2 text-right font-medium">Fee</th>
                <th scope="col" className="px-2 py-2 text-right font-medium">Net</th>
                <th scope="col" className="px-2 py-2 font-medium">PayPal</th>
                <th scope="col" className="px-2 py-2 font-medium">Status</th>
              </>
            }
          >
            {data.payouts.map((p) => (
              <tr key={p.id} className="border-b border-slate-100 last:border-0">
                <td className="whitespace-nowrap px-4 py-2 sm:px-2">{shortDate(p.createdAt)}</td>
                <td className="px-2 py-2 text-right tabular-nums">{formatMoney(p.requestedAmountCents)}</td>
                <td className="px-2 py-2 text-right tabular-nums">{formatMoney(p.processingFeeCents)}</td>
                <td className="px-2 py-2 text-right tabular-nums">{formatMoney(p.netAmountCents)}</td>
                <td className="break-all px-2 py-2">{p.payoutEmail}</td>
                <td className="px-2 py-2">
                  <Badge variant={payoutBadgeVariant(p.status)}>{STATUS_LABEL[p.status] ?? p.status}</Badge>
                </td>
              </tr>
            ))}
          </ScrollTable>
        )}
      </section>

      <Suspense fallback={null}>
        <PayoutDialog open={payoutOpen} onOpenChange={setPayoutOpen} eligibleCents={e.eligibleAmountCents} onDone={done} />
        <RenewDialog open={renewOpen} onOpenChange={setRenewOpen} balanceCents={balance} periodEnd={me?.plan.currentPeriodEndDate ?? null} onDone={done} />
      </Suspense>
    </div>
  );
}

function ProgramTerms() {
  return (
    <div className="max-w-2xl space-y-3 text-slate-800">
      <ul className="list-disc space-y-1 pl-5">
        <li>You earn {COMMISSION_PERCENT} of every payment made by customers who sign up through your referral link.</li>
        <li>Earnings go to your rewards balance. Use them for your own Plinth Plus ({PLUS_PRICE} a month) at any time.</li>
        <li>
          Cash payouts via PayPal need an active Plus subscription, {LIMITS.PAYOUT_MIN_PAYING_MONTHS} or more continuous paying months and a balance of at least {MIN_PAYOUT}. A {PAYOUT_FEE_PERCENT} processing fee applies; payouts arrive within 3-5 business days.
        </li>
      </ul>
      <p>
        <a href="/affiliate-terms" target="_blank" rel="noopener" className="font-medium text-brand-700 underline underline-offset-4">
          Read the full Program Terms
        </a>
      </p>
    </div>
  );
}

export default function AffiliateScreen() {
  const me = useDashboard((s) => s.me);
  const dataVersion = useDashboard((s) => s.dataVersion);
  const [data, setData] = useState<Data | null>(null);
  const [failed, setFailed] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const [shareShown, setShareShown] = useState(false);
  if (shareOpen && !shareShown) setShareShown(true);
  const lite = isLite(me);

  const reload = useCallback(() => {
    loadAll()
      // A transition: React draws the program's tabs in slices, leaving the page free meanwhile.
      .then((d) =>
        startTransition(() => {
          setData(d);
          setFailed(false);
        }),
      )
      .catch(() => setFailed(true));
  }, []);

  useEffect(() => {
    if (!lite) reload();
  }, [lite, reload, dataVersion]);

  return (
    <section aria-labelledby="screen-title" className="space-y-4">
      <div>
        <ScreenHeader path="/dashboard/affiliate" />
      </div>
      {lite ? (
        <UpgradePanel />
      ) : failed ? (
        <div role="alert" className="max-w-xl rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
          {AFFILIATE_MESSAGES.loadFailed}.{" "}
          <button type="button" className="font-medium underline" onClick={reload}>
            Try again
          </button>
        </div>
      ) : !data ? (
        <p className="text-slate-600">Loading...</p>
      ) : (
        <>
          <Tabs.Root defaultValue="overview">
            <Tabs.List aria-label="Affiliate program" className="mb-4 flex flex-wrap gap-1 border-b border-slate-200">
              <Tabs.Trigger value="overview" className={tabClass}>
                Overview
              </Tabs.Trigger>
              <Tabs.Trigger value="earnings" className={tabClass}>
                Detailed Earnings
              </Tabs.Trigger>
              <Tabs.Trigger value="balance" className={tabClass}>
                Balance & Payouts
              </Tabs.Trigger>
              <Tabs.Trigger value="terms" className={tabClass}>
                Program Terms
              </Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="overview">
              <Overview data={data} onShare={() => setShareOpen(true)} />
            </Tabs.Content>
            <Tabs.Content value="earnings">
              <DetailedEarnings data={data} onShare={() => setShareOpen(true)} />
            </Tabs.Content>
            <Tabs.Content value="balance">
              <BalanceAndPayouts data={data} reload={reload} />
            </Tabs.Content>
            <Tabs.Content value="terms">
              <ProgramTerms />
            </Tabs.Content>
          </Tabs.Root>
          {shareShown ? (
            <Suspense fallback={null}>
              <ShareDialog open={shareOpen} onOpenChange={setShareOpen} url={data.dashboard.referralUrl} />
            </Suspense>
          ) : null}
          {me?.plan.isTrialActive && !me.plan.isPayingPlus ? (
            <p className="text-sm text-slate-600">
              You're on the Plus trial until {longDate(me.plan.trialEndsAt)}. Cash payouts and Promote & Earn buttons on your page need a paid subscription.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
