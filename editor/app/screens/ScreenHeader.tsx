/**
 * Each screen's heading and, where it does not depend on the owner's data, the line under it. The
 * dashboard shows them from its first paint: while the session loads (App.tsx), while the screen
 * loads its data (ScreenLoading), and on the screen itself, so the owner sees at once where they are.
 */
import { ANALYTICS_TEXTS } from "#core/analytics.ts";
import { COMMISSION_PERCENT } from "#core/limits.ts";

const HEADERS = {
  "/dashboard/analytics": { title: ANALYTICS_TEXTS.title, summary: ANALYTICS_TEXTS.subtitle },
  "/dashboard/links": { title: "Page Layout" },
  "/dashboard/social-links": { title: "Social Links" },
  "/dashboard/profile-picture": { title: "Profile Picture", summary: "Choose how you appear at the top of your page. Changes stay in your draft until you publish." },
  "/dashboard/bio": { title: "Bio & SEO", summary: "Tell visitors who you are, and choose how your page appears in search results." },
  "/dashboard/appearance": { title: "Theme", summary: "Choose how your page looks. Every change stays in your draft until you publish." },
  "/dashboard/earnings": { title: "Earnings", summary: "Tips and paid downloads on your page, paid through Stripe." },
  "/dashboard/affiliate": { title: "Affiliate Program", summary: `Promote Plinth and earn ${COMMISSION_PERCENT} on every referral.` },
  "/dashboard/account-settings": { title: "Account Settings", summary: "Manage your account, security, subscription, billing and domain." },
} satisfies Record<string, { title: string; summary?: string }>;

export type ScreenPath = keyof typeof HEADERS;

export function isScreenPath(path: string): path is ScreenPath {
  return path in HEADERS;
}

/** The screen's heading (`#screen-title`, which its section is labelled by) and its fixed summary. */
export function ScreenHeader({ path }: { path: ScreenPath }) {
  const header: { title: string; summary?: string } = HEADERS[path];
  return (
    <>
      <h1 id="screen-title" className="text-2xl font-bold">
        {header.title}
      </h1>
      {header.summary ? <p className="mt-1 text-slate-600">{header.summary}</p> : null}
    </>
  );
}

/** A screen before its data arrives: its header, and the loading line under it. */
export function ScreenLoading({ path, text = "Loading..." }: { path: ScreenPath; text?: string }) {
  return (
    <section aria-labelledby="screen-title">
      <ScreenHeader path={path} />
      <p role="status" className="mt-1 text-slate-600">
        {text}
      </p>
    </section>
  );
}
