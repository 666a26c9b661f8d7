/**
 * The Publish dialog when the plan gate refuses the draft (ADR 112, 136): what a visitor would stop
 * seeing, item by item, before anything is confirmed, and two ways out: Upgrade (checkout) or Hide
 * Plus items and publish (the draft is published as it is and the plan hides exactly the listed
 * items on the page; the draft keeps them).
 */
import { useState } from "react";
import { DASH } from "#core/dashboard-texts.ts";
import { Button } from "../components/button.tsx";
import { Modal } from "../components/modal.tsx";
import { featureName, upgradeFor } from "../components/upgrade-prompt.tsx";

export function PublishBlockers(props: {
  open: boolean;
  onClose(): void;
  features: string[];
  changes: { feature: string; kind: string; id?: string; text: string }[];
  busy: boolean;
  onHideAndPublish(): void;
}) {
  const [upgrading, setUpgrading] = useState(false);
  async function upgrade() {
    setUpgrading(true);
    if (!(await upgradeFor(props.features[0]!))) setUpgrading(false);
  }
  return (
    <Modal open={props.open} onOpenChange={(o) => !o && props.onClose()} title="Publish Changes" description={DASH.publishBlockedTitle}>
      <p className="text-sm text-slate-700">{DASH.publishBlockersIntro}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm" aria-label="Plus items in your draft">
        {props.features.map((f) => {
          const items = props.changes.filter((c) => c.feature === f);
          return (
            <li key={f}>
              <span className="font-semibold">{featureName(f)}</span>
              {items.length > 0 ? <span className="text-slate-700">: {items.map((c) => c.text).join("; ")}</span> : null}
            </li>
          );
        })}
      </ul>
      <p className="mt-3 text-sm text-slate-600">
        {DASH.publishBlockedText} {DASH.hidePlusNote}
      </p>
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={props.onClose}>
          Cancel
        </Button>
        <Button variant="secondary" disabled={props.busy} onClick={props.onHideAndPublish}>
          {DASH.hidePlusAndPublish}
        </Button>
        <Button disabled={upgrading} onClick={() => void upgrade()}>
          {upgrading ? "Opening checkout..." : DASH.upgrade}
        </Button>
      </div>
    </Modal>
  );
}
