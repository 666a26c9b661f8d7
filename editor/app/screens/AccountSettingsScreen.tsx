/**
 * Account & Billing (/dashboard/account-settings). The tabs themselves live in screens/account/
 * (the accounts work): each `*Tab.tsx` there with a default export is mounted as a tab, in the
 * order Account, Security, Subscription, Billing, then Domain (issue 39), and loaded only when this screen opens.
 */
/// <reference types="vite/client" />
import { Tabs } from "radix-ui";
import { Suspense, type ComponentType } from "react";
import { lazyPart } from "../components/load-once.ts";
import { useGuardedTab } from "../shell/unsaved.tsx";
import { ScreenHeader } from "./ScreenHeader.tsx";

const modules = import.meta.glob<{ default: ComponentType }>("./account/*Tab.tsx");
const ORDER = ["Account", "Security", "Subscription", "Billing", "Domain"];

const tabs: ({ name: string } & ReturnType<typeof lazyPart>)[] = Object.entries(modules)
  .map(([path, load]) => ({ name: path.replace(/^.*\/(\w+)Tab\.tsx$/, "$1"), ...lazyPart(load) }))
  .sort((a, b) => (ORDER.indexOf(a.name) + 1 || 99) - (ORDER.indexOf(b.name) + 1 || 99));

/** ?tab=subscription (from checkout, the portal and e-mails) opens that tab. */
function initialTab(): string {
  const wanted = new URLSearchParams(window.location.search).get("tab")?.toLowerCase();
  return tabs.find((t) => t.name.toLowerCase() === wanted)?.name ?? tabs[0]?.name ?? "";
}
// The tab the screen opens on starts loading with the screen, not once the screen is drawn.
if (typeof window !== "undefined") void tabs.find((t) => t.name === initialTab())?.load().catch(() => undefined);

export default function AccountSettingsScreen() {
  const { tab, choose, prompt } = useGuardedTab(initialTab());
  return (
    <section aria-labelledby="screen-title">
      <ScreenHeader path="/dashboard/account-settings" />
      {tabs.length ? (
        <Tabs.Root value={tab} onValueChange={choose} className="mt-4">
          <Tabs.List aria-label="Account settings" className="mb-4 flex flex-wrap gap-1 border-b border-slate-200">
            {tabs.map((t) => (
              <Tabs.Trigger key={t.name} value={t.name} className="border-b-2 border-transparent px-3 py-2 text-sm font-medium data-[state=active]:border-brand-600 data-[state=active]:text-brand-700">
                {t.name}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {tabs.map((t) => (
            <Tabs.Content key={t.name} value={t.name}>
              <Suspense fallback={<p className="text-slate-600">Loading...</p>}>
                <t.Component />
              </Suspense>
            </Tabs.Content>
          ))}
        </Tabs.Root>
      ) : null}
      {prompt}
    </section>
  );
}
