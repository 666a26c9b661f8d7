import { useDashboard } from "../store.ts";

/** Whether the publish gate currently refuses the draft for `feature` (from GET /api/publish/state). */
export function useBlocked(feature: string): boolean {
  return useDashboard((s) => !!s.publish?.blockedFeatures.includes(feature));
}
