/**
 * The draft/publish bar: @username, plan badge, 'Draft Changes' exactly when the server says the
 * draft differs from the published page, Preview, Publish and Discard Changes with their dialogs,
 * and History (ADR 137). It also says once when Plus items the plan hid are back on the page (ADR 136).
 */
import { Eye, History, Rocket, Undo2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "../toast.tsx";
import { DASH } from "#core/dashboard-texts.ts";
import { LIMITS } from "#core/limits.ts";
import { ApiFailure, clientErrorMessage, unwrap } from "../api.ts";
import { loadOnce } from "../components/load-once.ts";
import { Button } from "../components/button.tsx";
import { Confirm } from "../components/modal.tsx";
import { featureName, upgradeFor } from "../components/upgrade-prompt.tsx";
import { useDashboard } from "../store.ts";

const post = (path: string, body?: unknown) =>
  unwrap(fetch(path, { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }) as any);
/** The Publish dialog of a refused draft loads when it first opens (ADR 132), then stays mounted. */
const blockersPart = loadOnce(() => import("./PublishBlockers.tsx"));
/** History loads when first opened, like the Publish dialog. */
const historyPart = loadOnce(() => import("./HistoryDialog.tsx"));
/** After a publish, a discard or a rollback: the dashboard reloads once the toast has been read. */
export const reloadSoon = () => setTimeout(() => window.location.reload(), LIMITS.RELOAD_AFTER_PUBLISH_MS);

export function StatusBar() {
  const me = useDashboard((s) => s.me);
  const publish = useDashboard((s) => s.publish);
  const livePreview = useDashboard((s) => s.livePreview);
  const refreshPublish = () => void useDashboard.getState().refreshPublish();
  const [dialog, setDialog] = useState<"publish" | "discard" | "history" | null>(null);
  const [busy, setBusy] = useState(false);
  const blockers = publish?.blockedFeatures ?? [];
  const blockersOpen = dialog === "publish" && blockers.length > 0;
  const [Blockers, setBlockers] = useState(() => blockersPart.loaded()?.PublishBlockers);
  useEffect(() => {
    // Offline for a moment: the press does nothing, and the next one tries again.
    if (blockersOpen && !Blockers) void blockersPart.load().then((m) => setBlockers(() => m.PublishBlockers), () => setDialog(null));
  }, [blockersOpen, Blockers]);
  const historyOpen = dialog === "history";
  const [HistoryView, setHistoryView] = useState(() => historyPart.loaded()?.HistoryDialog);
  useEffect(() => {
    if (historyOpen && !HistoryView) void historyPart.load().then((m) => setHistoryView(() => m.HistoryDialog), () => setDialog(null));
  }, [historyOpen, HistoryView]);

  // Once a render under Plus has shown again what the plan hid, say so, once (ADR 136).
  const told = useRef(false);
  const plusBack = !!publish?.plusItemsBack;
  useEffect(() => {
    if (!plusBack || told.current) return;
    told.current = true;
    void toast.success(DASH.plusItemsBack, { description: DASH.plusItemsBackText, duration: 10_000 });
    void post("/api/publish/plus-items-back/seen").catch(() => undefined);
  }, [plusBack]);
  if (!me) return null;
  const dirty = !!publish?.hasUnpublishedChanges;
  const badge = me.plan.planBadge;

  /**
   * Publish as is, or (hidePlus) with the owner's consent to the plan hiding the listed Plus items
   * on the page; the draft keeps them (ADR 136).
   */
  async function doPublish(hidePlus = false) {
    setBusy(true);
    try {
      await (hidePlus ? post("/api/publish/hide-plus", { hide: blockers }) : post("/api/publish"));
      setDialog(null);
      // The page reloads a moment after the owner has seen the toast, however long it took to load.
      void toast.success(DASH.published, { description: DASH.publishedText }).then(reloadSoon);
    } catch (e) {
      const outdated = hidePlus && e instanceof ApiFailure && e.status === 409;
      if (!outdated) setDialog(null);
      if (e instanceof ApiFailure && e.status === 402) {
        const features: string[] = e.details.features ?? [];
        const list = features.length ? ` Plus-only features in use: ${features.map(featureName).join(", ")}.` : "";
        toast.error(DASH.publishBlockedTitle, {
          description: DASH.publishBlockedText + list,
          duration: 10_000,
          action: { label: DASH.upgrade, onClick: () => void upgradeFor(features[0] ?? "unlimited_links") },
        });
        refreshPublish();
      } else if (outdated) {
        // The draft changed in another tab since the list was read: the dialog shows it afresh.
        toast.error(DASH.publishFailed, { description: e.message });
        refreshPublish();
      } else {
        // A 4xx says what to change; a 5xx's generic text says less than docs/product.md's fallback does.
        toast.error(DASH.publishFailed, { description: clientErrorMessage(e) ?? DASH.publishFailedText });
      }
    } finally {
      setBusy(false);
    }
  }

  async function doDiscard() {
    setBusy(true);
    try {
      await post("/api/publish/discard");
      setDialog(null);
      void toast.success(DASH.discarded, { description: DASH.discardedText }).then(reloadSoon);
    } catch {
      setDialog(null);
      toast.error(DASH.discardFailed);
    } finally {
      setBusy(false);
    }
  }

  return (
    // One row on a 390 px phone: the @username (also in the user menu) waits for wider screens, and
    // Preview, Discard Changes and History show their icons with their names for assistive technology
    // only, and the gaps narrow.
    <div className="flex flex-wrap items-center gap-1 border-b border-slate-200 bg-slate-50 px-2 py-2 text-sm sm:gap-2 sm:px-4" role="region" aria-label="Page status">
      <span className="hidden max-w-64 truncate font-medium sm:inline">@{me.username}</span>
      <span
        className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${badge === "Lite" ? "bg-slate-200 text-slate-800" : badge === "Plus" ? "bg-amber-100 text-amber-900" : "bg-emerald-100 text-emerald-900"}`}
      >
        {badge}
      </span>
      {dirty ? <span className="shrink-0 whitespace-nowrap rounded-full bg-orange-100 px-2 py-0.5 text-xs font-semibold text-orange-900">Draft Changes</span> : null}
      <div className="ml-auto flex gap-1 sm:gap-2">
        <a
          href={`/${me.username}?preview=true`}
          target="_blank"
          rel="noopener"
          // A screen with its own live preview has its own Preview toggle on phones: one is enough.
          className={`${livePreview ? "hidden lg:inline-flex" : "inline-flex"} min-h-10 min-w-10 items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 max-sm:px-2.5 font-medium hover:bg-slate-50`}
        >
          <Eye aria-hidden className="size-4 shrink-0" /> <span className="max-sm:sr-only">Preview</span>
        </a>
        <Button
          disabled={!dirty}
          onClick={() => {
            refreshPublish();
            setDialog("publish");
          }}
        >
          <Rocket aria-hidden className="size-4 shrink-0" /> Publish
        </Button>
        <Button variant="secondary" className="max-sm:px-2.5" disabled={!dirty} onClick={() => setDialog("discard")}>
          <Undo2 aria-hidden className="size-4 shrink-0" /> <span className="max-sm:sr-only">Discard Changes</span>
        </Button>
        <Button variant="secondary" className="max-sm:px-2.5" onClick={() => setDialog("history")}>
          <History aria-hidden className="size-4 shrink-0" /> <span className="max-sm:sr-only">History</span>
        </Button>
      </div>
      <Confirm
        open={dialog === "publish" && blockers.length === 0}
        onOpenChange={(o) => !o && setDialog(null)}
        title="Publish Changes"
        description="Your draft will replace the page visitors see now."
        confirm="Yes, Publish Now"
        busy={busy}
        onConfirm={() => void doPublish()}
      />
      {Blockers ? (
        <Blockers
          open={blockersOpen}
          onClose={() => setDialog(null)}
          features={blockers}
          changes={publish?.plusChanges ?? []}
          busy={busy}
          onHideAndPublish={() => void doPublish(true)}
        />
      ) : null}
      {HistoryView ? <HistoryView open={historyOpen} onClose={() => setDialog(null)} username={me.username} /> : null}
      <Confirm
        open={dialog === "discard"}
        onOpenChange={(o) => !o && setDialog(null)}
        title="Cancel Draft Changes"
        description="Your draft will go back to the last published version. This cannot be undone."
        cancel="Keep Changes"
        confirm="Yes, Cancel Changes"
        danger
        busy={busy}
        onConfirm={doDiscard}
      />
    </div>
  );
}
