/**
 * The public page as the renderer writes it, drawn in the browser: the same Page component and the
 * same CSS function renderer/render.tsx uses, so the preview is the HTML visitors get. (render.tsx
 * itself hashes with node:crypto and cannot run here; it only adds the <head> around these two.)
 * The page is drawn by the dashboard's own React into the frame (LivePreview.tsx), not rendered to
 * a string: react-dom/server would add about 65 KB of gzipped script to every editor screen.
 */
import type { ReactElement } from "react";
import type { PagePlan, PageSnapshot } from "#core/model.ts";
import type { PlanFeature } from "#core/plan-hides.ts";
import { plusOnlyFeaturesUsed } from "#core/publish-gate.ts";
import { visibleContentOf } from "#core/visible-content.ts";
import type { BrandIconPaths } from "#renderer/components/brand-icons.ts";
import { Page } from "#renderer/components/Page.tsx";
import type { LongFormBlock } from "#renderer/markdown.ts";
import { pageCss, pageStyleOf } from "#renderer/css.ts";

export interface PageDocument {
  css: string;
  body: ReactElement;
}

/**
 * `origin` is the public origin the published page is written for (its footer and banner links);
 * `markdown` draws the long-form text, as render.tsx does (loaded on demand: without it, none shows);
 * `icons` holds the brand marks loaded so far (brand-icons.ts: a missing one shows empty);
 * `address` is the page's address (the API's `pageAddress`, ADR 244), shown by its share and QR code dialogs.
 */
export function pageDocument(
  snapshot: PageSnapshot,
  plan: PagePlan,
  fonts: Record<string, string[]>,
  now: Date,
  origin: string,
  markdown: ((text: string) => LongFormBlock[]) | undefined,
  icons: BrandIconPaths,
  address?: string,
): PageDocument {
  const v = visibleContentOf(snapshot, plan, now);
  const longForm = markdown?.(v.longFormText);
  return {
    css: pageCss(pageStyleOf(snapshot.profile, v), fonts).css,
    body: <Page snapshot={snapshot} plan={plan} now={now} mode="published" origin={origin.replace(/\/+$/, "")} pageUrl={address || undefined} content={v} longForm={longForm} icons={icons} />,
  };
}

/** The Plus-only features a page shows that a Lite page would hide (core/plan-hides.ts). */
export function plusFeaturesOf(snapshot: PageSnapshot, now: Date): PlanFeature[] {
  return plusOnlyFeaturesUsed(snapshot, now);
}

/** A plan under which every Plus choice shows: what a Lite owner's page would look like with Plus. */
export function asPlus(now: Date): PagePlan {
  return { planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(now.getTime() + 366 * 86_400_000).toISOString(), trialEndsAt: null };
}

/** The empty document the preview frame starts from; the page's CSS and body are written into it. */
export const FRAME_SKELETON =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
  '<base target="_blank"><style id="page-css"></style></head><body></body></html>';
