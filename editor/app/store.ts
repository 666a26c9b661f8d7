/**
 * Dashboard state (zustand): the signed-in owner, the publish state, and the open upgrade prompt.
 * Screens keep their own lists; every edit goes to the API first and is reloaded from it.
 */
import { create } from "zustand";
import { api, unwrap } from "./api.ts";

export type Me = Awaited<ReturnType<typeof loadMe>>;
export interface PublishState {
  hasUnpublishedChanges: boolean;
  hasPublishedPage: boolean;
  lastPublishedAt: string | null;
  version: number | null;
  blockedFeatures: string[];
  /** What the plan would hide if the draft were published now, item by item (ADR 136). */
  plusChanges: { feature: string; kind: string; id?: string; text: string }[];
  /** A render under Plus has shown the page's Plus items again, not yet announced (ADR 136). */
  plusItemsBack: boolean;
  /** Set while an admin keeps the page suspended (ADR 108): the dashboard says why. */
  suspension: { since: string; reason: string } | null;
}

async function loadMe() {
  return unwrap(api.me.$get());
}

async function loadPublishState(): Promise<PublishState | null> {
  try {
    const res = await fetch("/api/publish/state", { credentials: "same-origin" });
    if (!res.ok) return null;
    const body = (await res.json()) as Partial<PublishState>;
    return {
      hasUnpublishedChanges: !!body.hasUnpublishedChanges,
      hasPublishedPage: !!body.hasPublishedPage,
      lastPublishedAt: body.lastPublishedAt ?? null,
      version: body.version ?? null,
      blockedFeatures: body.blockedFeatures ?? [],
      plusChanges: body.plusChanges ?? [],
      plusItemsBack: !!body.plusItemsBack,
      suspension: body.suspension ?? null,
    };
  } catch {
    return null;
  }
}

interface DashboardState {
  me: Me | null;
  publish: PublishState | null;
  /** Bumped whenever data changed elsewhere (another tab or device): screens reload on change. */
  dataVersion: number;
  upgradeFeature: string | null;
  /** True while the screen shows its own live preview (on phones behind its own Preview toggle). */
  livePreview: boolean;
  setLivePreview(on: boolean): void;
  loadMe(): Promise<void>;
  refreshPublish(): Promise<void>;
  /** Call after every saved edit: the draft state changes. */
  edited(): void;
  externalChange(): void;
  openUpgrade(feature: string): void;
  closeUpgrade(): void;
}

export const useDashboard = create<DashboardState>((set, get) => ({
  me: null,
  publish: null,
  dataVersion: 0,
  upgradeFeature: null,
  livePreview: false,
  setLivePreview(on) {
    set({ livePreview: on });
  },
  async loadMe() {
    set({ me: await loadMe() });
  },
  async refreshPublish() {
    set({ publish: await loadPublishState() });
  },
  edited() {
    void get().refreshPublish();
  },
  externalChange() {
    set((s) => ({ dataVersion: s.dataVersion + 1 }));
    void get().refreshPublish();
    void get().loadMe().catch(() => undefined);
  },
  openUpgrade(feature) {
    set({ upgradeFeature: feature });
  },
  closeUpgrade() {
    set({ upgradeFeature: null });
  },
}));

export const isLite = (me: Me | null) => me?.plan.effectivePlan === "lite";
