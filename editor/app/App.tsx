/**
 * The dashboard SPA: routes under /dashboard/*, the shell, toasts (one at a time), the upgrade
 * prompt, and live updates from other tabs or devices (ADR 060).
 */
import { Tooltip } from "radix-ui";
import { lazy, Suspense, useEffect, useRef } from "react";
import { BrowserRouter, Navigate, Route, Routes } from "react-router";
import { Toaster } from "sonner";
import { api, unwrap } from "./api.ts";
import { AppErrorBoundary } from "./components/AppErrorBoundary.tsx";
import { UpgradePrompt } from "./components/ui.tsx";
import { Shell } from "./shell/Shell.tsx";
import { useDashboard } from "./store.ts";
import { Placeholder } from "./screens/Placeholder.tsx";
import { NotFound } from "./screens/NotFound.tsx";

const AnalyticsScreen = lazy(() => import("./screens/analytics/AnalyticsScreen.tsx"));
const LinksScreen = lazy(() => import("./screens/links/LinksScreen.tsx"));
const SocialLinksScreen = lazy(() => import("./screens/social/SocialLinksScreen.tsx"));
const ProfilePictureScreen = lazy(() => import("./screens/profile/ProfilePictureScreen.tsx"));
const BioScreen = lazy(() => import("./screens/bio/BioScreen.tsx"));
const AppearanceScreen = lazy(() => import("./screens/appearance/AppearanceScreen.tsx"));
const AccountSettingsScreen = lazy(() => import("./screens/AccountSettingsScreen.tsx"));

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
  return <p className="p-6 text-slate-600">Loading...</p>;
}

export default function App() {
  const me = useDashboard((s) => s.me);
  useEffect(() => {
    void useDashboard.getState().loadMe().catch(() => undefined);
    void useDashboard.getState().refreshPublish();
  }, []);
  useLiveUpdates();

  return (
    <AppErrorBoundary>
      <Tooltip.Provider delayDuration={200}>
        <BrowserRouter>
          {me ? (
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
                  <Route path="/dashboard/affiliate" element={<Placeholder title="Affiliate Program" />} />
                  <Route path="/dashboard/account-settings" element={<AccountSettingsScreen />} />
                  <Route path="*" element={<NotFound />} />
                </Routes>
              </Suspense>
            </Shell>
          ) : (
            <Loading />
          )}
        </BrowserRouter>
        <UpgradePrompt />
        <Toaster position="top-center" visibleToasts={1} richColors closeButton />
      </Tooltip.Provider>
    </AppErrorBoundary>
  );
}
