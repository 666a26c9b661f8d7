/**
 * The dashboard SPA: routes under /dashboard/*, the shell, toasts (one at a time), the upgrade
 * prompt, and live updates from other tabs or devices (ADR 060).
 */
import { lazy, startTransition, Suspense, useEffect, useRef, useState } from "react";
import { Navigate, Route, Routes, unstable_HistoryRouter as HistoryRouter } from "react-router";
import { api, ApiFailure, unwrap } from "./api.ts";
import { AppErrorBoundary } from "./components/AppErrorBoundary.tsx";
import { lazyPart } from "./components/load-once.ts";
import { UpgradePrompt } from "./components/upgrade-prompt.tsx";
import { dashboardHistory } from "./shell/guarded-history.ts";
import { Shell } from "./shell/Shell.tsx";
import { useDashboard } from "./store.ts";
import { Toasts } from "./toast.tsx";
import { useCheckoutWelcome } from "./screens/account/checkout-welcome.ts";
import { isScreenPath, ScreenLoading, type ScreenPath } from "./screens/ScreenHeader.tsx";

/** Each screen by its address, loaded on first visit; one whose module has arrived renders at once. */
const screens: Record<ScreenPath, ReturnType<typeof lazyPart>> = {
  "/dashboard/analytics": lazyPart(() => import("./screens/analytics/AnalyticsScreen.tsx")),
  "/dashboard/links": lazyPart(() => import("./screens/links/LinksScreen.tsx")),
  "/dashboard/social-links": lazyPart(() => import("./screens/social/SocialLinksScreen.tsx")),
  "/dashboard/profile-picture": lazyPart(() => import("./screens/profile/ProfilePictureScreen.tsx")),
  "/dashboard/bio": lazyPart(() => import("./screens/bio/BioScreen.tsx")),
  "/dashboard/appearance": lazyPart(() => import("./screens/appearance/AppearanceScreen.tsx")),
  "/dashboard/earnings": lazyPart(() => import("./screens/earnings/EarningsScreen.tsx")),
  "/dashboard/affiliate": lazyPart(() => import("./screens/affiliate/AffiliateScreen.tsx")),
  "/dashboard/account-settings": lazyPart(() => import("./screens/AccountSettingsScreen.tsx")),
};
const screenRoutes = (Object.entries(screens) as [ScreenPath, ReturnType<typeof lazyPart>][]).map(([path, { Component }]) => (
  <Route key={path} path={path} element={<Component />} />
));
// The screen the dashboard opens on starts loading now, beside the session, not after it: one
// round trip less before the owner sees it. The dashboard first renders once both are in (a failed
// load here is the lazy screen's to report).
const openingPath = typeof location === "undefined" ? "" : location.pathname.replace(/\/+$/, "");
const opening = openingPath === "/dashboard" ? "/dashboard/analytics" : openingPath;
const openingScreen: Promise<unknown> = isScreenPath(opening) ? screens[opening].load().catch(() => undefined) : Promise.resolve();
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

/** Until the session is known: the opening screen's header, with the padding the screen has in the shell. */
function Loading() {
  return (
    <div className="p-4 sm:p-6">
      {isScreenPath(opening) ? (
        <ScreenLoading path={opening} />
      ) : (
        <p role="status" className="text-slate-600">
          Loading...
        </p>
      )}
    </div>
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
        {screenRoutes}
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
  const [signedIn, setSignedIn] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    // Until the session and profile are known the dashboard shows only its loading state; a 401
    // sends the visitor to sign in and back here afterwards (api.ts). The signed-in dashboard then
    // renders as a transition, in slices that leave the page free to answer input meanwhile.
    void useDashboard
      .getState()
      .loadMe()
      .then(() => openingScreen)
      .then(() => startTransition(() => setSignedIn(true)))
      .catch((err: unknown) => {
        if (!(err instanceof ApiFailure && err.status === 401)) setFailed(true);
      });
    void useDashboard.getState().refreshPublish();
  }, []);
  useLiveUpdates();
  useCheckoutWelcome();

  return (
    <AppErrorBoundary>
      {signedIn ? <Dashboard /> : failed ? <LoadFailed /> : <Loading />}
      <UpgradePrompt />
      <Toasts />
    </AppErrorBoundary>
  );
}
