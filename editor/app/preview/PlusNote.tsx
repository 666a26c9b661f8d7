/**
 * The note above the live preview when a Lite owner's draft holds Plus-only choices: the preview
 * shows them as Plus publishes them, and publishing them needs Plus. It loads the first time a
 * preview needs it (ADR 132): most previews never show it.
 */
import { Crown } from "lucide-react";
import type { PlanFeature } from "#core/plan-hides.ts";
import { Button } from "../components/button.tsx";
import { featureName } from "../components/upgrade-prompt.tsx";
import { useDashboard } from "../store.ts";
import { useProfileDraft } from "./store.ts";

export default function PlusNote({ features }: { features: PlanFeature[] }) {
  const tryingOn = useProfileDraft((s) => Object.keys(s.tryOn).length > 0);
  const clearTryOn = useProfileDraft((s) => s.clearTryOn);
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  return (
    <div role="note" aria-label="Plus features in this preview" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="flex items-center gap-1 font-semibold">
        <Crown aria-hidden className="size-4" /> Publishing needs Plinth Plus
      </p>
      <p className="mt-1">
        This preview shows {features.map((f) => featureName(f).toLowerCase()).join(", ")} as Plinth Plus publishes them. Your plan cannot put them on your page.
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button onClick={() => openUpgrade(features[0]!)}>Upgrade to Plus</Button>
        {tryingOn ? (
          <Button variant="secondary" onClick={clearTryOn}>
            Stop previewing
          </Button>
        ) : null}
      </div>
    </div>
  );
}
