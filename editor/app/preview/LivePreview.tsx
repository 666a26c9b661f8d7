/**
 * The live preview: the draft page, with what the owner is typing, drawn by the renderer's own
 * components into a sandboxed frame (no script runs in it; its CSS cannot touch the dashboard's).
 * A Lite owner's Plus-only choices show as they would with Plus, under a note that publishing needs it.
 */
import { lazy, Suspense, useDeferredValue, useEffect, useMemo, useState } from "react";
import { createPortal } from "react-dom";
import { effectivePlan } from "#core/plans.ts";
import { planStateOf } from "#core/plans.ts";
import type { LongFormBlock } from "#renderer/markdown.ts";
import { useBrandIcons } from "../components/brand-icons.ts";
import { useDashboard } from "../store.ts";
import { asPlus, FRAME_SKELETON, pageDocument, plusFeaturesOf } from "./page-document.tsx";
import { useCurrentSnapshot, useProfileDraft } from "./store.ts";

const PlusNote = lazy(() => import("./PlusNote.tsx"));

export function LivePreview() {
  const snapshot = useCurrentSnapshot();
  const plan = useProfileDraft((s) => s.plan);
  const fonts = useProfileDraft((s) => s.fonts);
  const origin = useProfileDraft((s) => s.origin);
  const address = useDashboard((s) => s.me?.pageAddress);
  // The frame's body once its empty document has loaded: the page is drawn into it.
  const [body, setBody] = useState<HTMLElement | null>(null);
  const deferred = useDeferredValue(snapshot);
  // The Markdown parser of long-form text loads the first time a page has some (a Plus feature).
  const [markdown, setMarkdown] = useState<{ parse: (text: string) => LongFormBlock[] } | null>(null);
  const wantsMarkdown = !!deferred?.profile.longFormText.trim();
  useEffect(() => {
    if (wantsMarkdown && !markdown) void import("#renderer/markdown.ts").then((m) => setMarkdown({ parse: m.longFormBlocks }));
  }, [wantsMarkdown, markdown]);

  // The brand marks of the page's platforms, hidden ones too, so showing one draws it at once.
  const icons = useBrandIcons(deferred?.socialLinks.map((s) => s.platform) ?? []);

  const view = useMemo(() => {
    if (!deferred || !plan) return null;
    const now = new Date();
    const lite = effectivePlan(planStateOf(plan), now) === "lite";
    const needsPlus = lite ? plusFeaturesOf(deferred, now) : [];
    const doc = pageDocument(deferred, needsPlus.length ? asPlus(now) : plan, fonts, now, origin, markdown?.parse, icons, address);
    return { doc, needsPlus };
  }, [deferred, plan, fonts, origin, markdown, icons, address]);

  useEffect(() => {
    const style = body?.ownerDocument.getElementById("page-css");
    if (style && view && style.textContent !== view.doc.css) style.textContent = view.doc.css;
  }, [body, view]);

  if (!view) return <p className="p-4 text-sm text-slate-600">Loading preview...</p>;
  return (
    <div className="flex h-full flex-col gap-2">
      {view.needsPlus.length ? (
        <Suspense fallback={null}>
          <PlusNote features={view.needsPlus} />
        </Suspense>
      ) : null}
      <iframe
        title="Live preview of your page"
        srcDoc={FRAME_SKELETON}
        sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
        onLoad={(e) => setBody(e.currentTarget.contentDocument?.body ?? null)}
        data-testid="live-preview"
        className="min-h-[480px] w-full flex-1 rounded-xl border border-slate-300 bg-white shadow-sm"
      />
      {body ? createPortal(view.doc.body, body) : null}
    </div>
  );
}
