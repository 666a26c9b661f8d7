/**
 * An editor screen with the live preview beside it on large screens, and behind a Preview toggle on
 * small ones. It loads the draft for the preview and drops unsaved edits and try-ons on leaving.
 */
import { Eye, EyeOff } from "lucide-react";
import { useEffect, useId, useState, type ReactNode } from "react";
import { toast } from "../toast.tsx";
import { PROFILE_MESSAGES } from "#core/profile.ts";
import { Button } from "../components/ui.tsx";
import { useDashboard } from "../store.ts";
import { LivePreview } from "./LivePreview.tsx";
import { useProfileDraft } from "./store.ts";

export function EditorWithPreview({ children }: { children: ReactNode }) {
  const dataVersion = useDashboard((s) => s.dataVersion);
  const failed = useProfileDraft((s) => s.failed);
  const [showPreview, setShowPreview] = useState(false);
  const previewId = useId();

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

  return (
    <div className="flex flex-col gap-4 lg:grid lg:grid-cols-[minmax(0,1fr)_340px] lg:gap-6 xl:grid-cols-[minmax(0,1fr)_400px]">
      <div className="lg:hidden">
        <Button variant="secondary" aria-pressed={showPreview} aria-controls={previewId} onClick={() => setShowPreview((v) => !v)}>
          {showPreview ? <EyeOff aria-hidden className="size-4" /> : <Eye aria-hidden className="size-4" />} Preview
        </Button>
      </div>
      <aside
        id={previewId}
        aria-label="Live preview"
        className={`${showPreview ? "flex h-[75vh]" : "hidden"} flex-col lg:sticky lg:top-4 lg:col-start-2 lg:row-start-1 lg:flex lg:h-[calc(100vh-2rem)] lg:max-h-[860px] lg:self-start`}
      >
        <h2 className="mb-2 text-sm font-semibold text-slate-700">Live preview</h2>
        <LivePreview />
      </aside>
      <div className="min-w-0 lg:col-start-1 lg:row-start-1">{children}</div>
    </div>
  );
}
