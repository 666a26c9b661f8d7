/**
 * The dashboard SPA: routes under /dashboard/*, the shell, toasts (one at a time), the upgrade
 * prompt, and live updates from other tabs or devices (ADR 060).
 */
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Navigate, Route, Routes, unstable_HistoryRouter as HistoryRouter } from "react-router";
import { api, ApiFailure, unwrap } from "./api.ts";
import { AppErrorBoundary } from "./components/AppErrorBoundary.tsx";
import { UpgradePrompt } from "./components/upgrade-prompt.tsx";
import { dashboardHistory } from "./shell/guarded-history.ts";
import { Shell } from "./shell/Shell.tsx";
import { useDashboard } from "./store.ts";
import { Toasts } from "./toast.tsx";
import { useCheckoutWelcome } from "./screens/account/checkout-welcome.ts";

const AnalyticsScreen = lazy(() => import("./screens/analytics/AnalyticsScreen.tsx"));
const LinksScreen = lazy(() => import("./screens/links/LinksScreen.tsx"));
const SocialLinksScreen = lazy(() => import("./screens/social/SocialLinksScreen.tsx"));
const ProfilePictureScreen = lazy(() => import("./screens/profile/ProfilePictureScreen.tsx"));
const BioScreen = lazy(() => import("./screens/bio/BioScreen.tsx"));
const AppearanceScreen = lazy(() => import("./screens/appearance/AppearanceScreen.tsx"));
const AccountSettingsScreen = lazy(() => import("./screens/AccountSettingsScreen.tsx"));
const EarningsScreen = lazy(() => import("./screens/earnings/EarningsScreen.tsx"));
const AffiliateScreen = lazy(() => import("./screens/affiliate/AffiliateScreen.tsx"));
const NotFound = lazy(() => import("./screens/NotFound.tsx").then((m) => ({ default: m.NotFound })));

/** How often the dashboard asks whether the draft changed elsewhere (only while the tab is visible). */
const POLL_MS = 5000;

function useLiveUpdates() {
  const last = useRef<string | null>(null);
  useEffect(() => {
    let stopped = false;
    async function tick() {
      if (document.visibilityState !== "visible") return;
      try {
        const { stamp } = await unwrap(api.events.stamp.$get());
        if (last.current !== null && stamp !== last.current && !stopped) useDashboard.getState().externalChange();
        last.current = stamp;
      } catch {
        /* offline for a moment: the next tick tries again */
      }
    }
    void tick();
    const timer = setInterval(tick, POLL_MS);
    document.addEventListener("visibilitychange", tick);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", tick);
    };
  }, []);
}

function Loading() {
  return (
    <p role="status" className="p-6 text-slate-600">
      Loading...
    </p>
  );
}

/** The session and profile could not be loaded (not a sign-out: that goes to the login page). */
function LoadFailed() {
  return (
    <div role="alert" className="mx-auto max-w-lg p-8 text-center">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="mt-2 text-slate-600">Your dashboard could not be loaded.</p>
      <button type="button" onClick={() => window.location.reload()} className="mt-4 rounded-md bg-brand-600 px-4 py-2 font-medium text-white">
        Reload Page
      </button>
    </div>
  );
}

const dashboardRoutes = (
  <Shell>
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/dashboard" element={<Navigate to="/dashboard/analytics" replace />} />
        <Route path="/dashboard/account" element={<Navigate to="/dashboard/account-settings" replace />} />
        <Route path="/dashboard/analytics" element={<AnalyticsScreen />} />
        <Route path="/dashboard/links" element={<LinksScreen />} />
        <Route path="/dashboard/social-links" element={<SocialLinksScreen />} />
        <Route path="/dashboard/profile-picture" element={<ProfilePictureScreen />} />
        <Route path="/dashboard/bio" element={<BioScreen />} />
        <Route path="/dashboard/appearance" element={<AppearanceScreen />} />
        <Route path="/dashboard/earnings" element={<EarningsScreen />} />
        <Route path="/dashboard/affiliate" element={<AffiliateScreen />} />
        <Route path="/dashboard/account-settings" element={<AccountSettingsScreen />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  </Shell>
);

/** The signed-in dashboard, on a history whose moves wait while a form has unsaved changes (shell/unsaved.tsx). */
function Dashboard() {
  return <HistoryRouter history={dashboardHistory()}>{dashboardRoutes}</HistoryRouter>;
}

export default function App() {
  const me = useDashboard((s) => s.me);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    // Until the session and profile are known the dashboard shows only its loading state; a 401
    // sends the visitor to sign in and back here afterwards (api.ts).
    void useDashboard
      .getState()
      .loadMe()
      .catch((err: unknown) => {
        if (!(err instanceof ApiFailure && err.status === 401)) setFailed(true);
      });
    void useDashboard.getState().refreshPublish();
  }, []);
  useLiveUpdates();
  useCheckoutWelcome();

  return (
    <AppErrorBoundary>
      {me ? <Dashboard /> : failed ? <LoadFailed /> : <Loading />}
      <UpgradePrompt />
      <Toasts />
    </AppErrorBoundary>
  );
}
