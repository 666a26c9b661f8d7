/** The one upgrade prompt, and what every Upgrade button does (ADR 081). */
import { useEffect, useState } from "react";
import { FEATURE_LABELS } from "#core/feature-labels.ts";
import { LINK_TYPE_LABELS } from "#core/link-types.ts";
import { CHECKOUT_FAILED, PLUS_PRICE_LABEL } from "#core/plus-price.ts";
import { api, unwrap } from "../api.ts";
import { toast } from "../toast.tsx";
import { useDashboard } from "../store.ts";
import { Button } from "./button.tsx";
import { Modal } from "./modal.tsx";

/** A feature key as the owner reads it, from core's one table of feature names. */
export const featureName = (key: string) =>
  key in FEATURE_LABELS
    ? FEATURE_LABELS[key as keyof typeof FEATURE_LABELS]
    : // A link type with no feature key of its own (core/plan-hides.ts): "Music links".
      key in LINK_TYPE_LABELS
      ? `${LINK_TYPE_LABELS[key as keyof typeof LINK_TYPE_LABELS]} links`
      : key.replaceAll("_", " ");

type UpgradeFeature = Parameters<(typeof api)["upgrade-requests"]["$post"]>[0]["json"]["feature"];
const recordUpgrade = (feature: string, reason: "prompt_shown" | "upgrade_clicked") =>
  unwrap(api["upgrade-requests"].$post({ json: { feature: feature as UpgradeFeature, reason } }));

/** Records which feature the owner upgrades for, then on to checkout (ADR 081). False when checkout could not start. */
export async function upgradeFor(feature: string): Promise<boolean> {
  await recordUpgrade(feature, "upgrade_clicked").catch(() => undefined);
  // The checkout's module loads with the first Upgrade press (ADR 132).
  const billing = await import("../screens/account/billing-ui.tsx").catch(() => null);
  if (billing) return billing.startCheckout();
  toast.error(CHECKOUT_FAILED);
  return false;
}

/**
 * The one upgrade prompt. It records the feature key that brought the owner here when it opens, and
 * again when they choose to upgrade, so we learn which gates people meet and which they want lifted.
 */
export function UpgradePrompt() {
  const feature = useDashboard((s) => s.upgradeFeature);
  const close = useDashboard((s) => s.closeUpgrade);
  const [busy, setBusy] = useState(false);
  const promote = feature === "promote_plinth";
  useEffect(() => {
    if (feature) void recordUpgrade(feature, "prompt_shown").catch(() => undefined);
    setBusy(false);
  }, [feature]);
  async function upgrade() {
    if (!feature) return;
    setBusy(true);
    if (!(await upgradeFor(feature))) setBusy(false);
  }
  return (
    <Modal
      open={feature !== null}
      onOpenChange={(o) => !o && close()}
      title={promote ? "Upgrade Required" : "Upgrade to Plinth Plus"}
      description={
        promote
          ? "Promote & Earn links are for Plinth Plus subscribers. Upgrade to share your referral link and earn 20% on every referral."
          : `${featureName(feature ?? "")} is a Plinth Plus feature. Upgrade to Plinth Plus (${PLUS_PRICE_LABEL}) to use it.`
      }
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={close}>
          Not Now
        </Button>
        <Button onClick={upgrade} disabled={busy}>
          {busy ? "Opening checkout..." : promote ? "Upgrade & Earn!" : "Upgrade to Plus"}
        </Button>
      </div>
    </Modal>
  );
}
