/**
 * An editor screen with the live preview beside it on large screens, and behind a Preview toggle on
 * small ones. It loads the draft for the preview and drops unsaved edits and try-ons on leaving.
 * The preview's renderer (the public page's components, CSS and icons) loads when the preview is
 * first on screen: at once beside the editor, on the first Preview press on a phone (ADR 132).
 */
import { Eye, EyeOff } from "lucide-react";
import { useEffect, useId, useState, type ReactNode } from "react";
import { toast } from "../toast.tsx";
import { PROFILE_MESSAGES } from "#core/profile.ts";
import { Button } from "../components/button.tsx";
import { useDashboard } from "../store.ts";
import { useProfileDraft } from "./store.ts";
import { loadOnce } from "../components/load-once.ts";

type Preview = (typeof import("./LivePreview.tsx"))["LivePreview"];
const preview = loadOnce(() => import("./LivePreview.tsx").then((m) => m.LivePreview));

export function EditorWithPreview({ children }: { children: ReactNode }) {
  const dataVersion = useDashboard((s) => s.dataVersion);
  const failed = useProfileDraft((s) => s.failed);
  const [showPreview, setShowPreview] = useState(false);
  const previewId = useId();
  // The preview's renderer, asked for when the preview is first on screen.
  const [aside, setAside] = useState<HTMLElement | null>(null);
  const wide = useWide();
  const [LivePreview, setLivePreview] = useState<Preview | null>(() => preview.loaded());
  // Shown at least once: until then a hidden preview (a phone's) says nothing, not even "Loading".
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const el = aside;
    if (LivePreview || !el) return;
    const watch = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      setSeen(true);
      preview.load().then((p) => setLivePreview(() => p), () => undefined);
    });
    watch.observe(el);
    return () => watch.disconnect();
  }, [LivePreview, aside]);

  useEffect(() => {
    void useProfileDraft.getState().load();
  }, [dataVersion]);
  useEffect(() => {
    if (failed) toast.error(PROFILE_MESSAGES.loadFailed);
  }, [failed]);
  // The status bar's Preview steps aside on phones, where this screen's own toggle shows the preview.
  useEffect(() => {
    useDashboard.getState().setLivePreview(true);
    return () => useDashboard.getState().setLivePreview(false);
  }, []);
  useEffect(
    () => () => {
      useProfileDraft.getState().clearPending();
      useProfileDraft.getState().clearTryOn();
    },
    [],
  );

  const panel = (
    <aside
      ref={setAside}
      id={previewId}
      aria-label="Live preview"
      className={`${showPreview ? "flex h-[75vh]" : "hidden"} flex-col lg:sticky lg:top-4 lg:col-start-2 lg:row-start-1 lg:flex lg:h-[calc(100vh-2rem)] lg:max-h-[860px] lg:self-start`}
    >
      <h2 className="mb-2 text-sm font-semibold text-slate-700">Live preview</h2>
      {LivePreview ? <LivePreview /> : seen ? <p className="p-4 text-sm text-slate-600">Loading preview...</p> : null}
    </aside>
  );
  // The form comes first in the tab order: beside it, the preview follows it in the document and
  // sits in the right column; on a phone it opens right under its toggle, above the form.
  return (
    <div className="flex flex-col gap-4 lg:grid lg:grid-cols-[minmax(0,1fr)_340px] lg:gap-6 xl:grid-cols-[minmax(0,1fr)_400px]">
      <div className="lg:hidden">
        <Button variant="secondary" aria-pressed={showPreview} aria-controls={previewId} onClick={() => setShowPreview((v) => !v)}>
          {showPreview ? <EyeOff aria-hidden className="size-4" /> : <Eye aria-hidden className="size-4" />} Preview
        </Button>
      </div>
      {wide ? null : panel}
      <div className="min-w-0 lg:col-start-1 lg:row-start-1">{children}</div>
      {wide ? panel : null}
    </div>
  );
}

/** Whether the screen is wide enough (Tailwind's lg) for the preview to stand beside the form. */
const WIDE = "(min-width: 64rem)";
function useWide(): boolean {
  const [wide, setWide] = useState(() => window.matchMedia(WIDE).matches);
  useEffect(() => {
    const mq = window.matchMedia(WIDE);
    const onChange = () => setWide(mq.matches);
    mq.addEventListener("change", onChange);
    onChange();
    return () => mq.removeEventListener("change", onChange);
  }, []);
  return wide;
}
