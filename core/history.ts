/**
 * The History view (ADR 137): its texts, and the one line it shows under each published version,
 * what changed since the version before it in the owner's words ("2 links added, theme changed").
 * Pure.
 */
import type { PageLink, PagePlan, PageProfile, PageSnapshot } from "./model.ts";
import { planHiddenItems, type PlanHiddenItem } from "./plan-hides.ts";
import { publishGate } from "./publish-gate.ts";

/** The time in a version's preview banner, which the server writes, e.g. "28 Nov 2026, 10:30 UTC"; the History list shows the browser's local time. */
export function versionTime(at: Date): string {
  return `${new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(at)} UTC`;
}

export const HISTORY_TEXTS = {
  title: "History",
  description: "Every version you published. Preview one, restore it into your draft, or put it live again.",
  empty: "Nothing published yet. Each time you publish, the version is kept here.",
  loadFailed: "Failed to load your history",
  live: "Live now",
  hiddenByPlan: "Published with Plus items hidden by your plan",
  preview: "Preview",
  restore: "Restore to draft",
  putLive: "Put live",
  restoreTitle: (n: number) => `Restore version ${n} to your draft?`,
  restoreText: "Your draft becomes this version. Your live page does not change until you publish. Unpublished edits in your draft are replaced.",
  restoreConfirm: "Yes, Restore to Draft",
  restored: (n: number) => `Version ${n} is now your draft`,
  restoredText: "Edit it as you like, then publish when you are ready.",
  restoreFailed: "Failed to restore this version",
  putLiveTitle: (n: number) => `Put version ${n} live?`,
  putLiveText: "Visitors will see this version at once, and your draft becomes this version. Unpublished edits in your draft are replaced.",
  putLiveConfirm: "Yes, Put It Live",
  /** Put live of a version the owner's plan would publish with Plus items hidden (ADR 200). */
  putLiveHidesText:
    "Visitors will see this version at once, and your draft becomes this version. Your plan hides the Plus items below on your page; your draft keeps them, and they come back when you upgrade. Unpublished edits in your draft are replaced.",
  putLiveHidesList: "What visitors will not see",
  putLiveHidesConfirm: "Hide Plus items and put live",
  planHidesNote: (n: number) => `Put live now, your plan hides ${n} Plus ${n === 1 ? "item" : "items"} of this version`,
  consentOutdated: "What your plan hides on this version changed since you opened History. Check the list and try again.",
  putLiveFailed: "Failed to put this version live",
  versionNotFound: "Version not found",
  previewBanner: (n: number, at: Date) => `Version ${n}, published ${versionTime(at)}: your page as visitors saw it then. Visitors see your live page.`,
} as const;

/**
 * What the owner's plan would hide, item by item, if `snapshot` were put live at `now` (ADR 200): the
 * list "Put live" shows and asks consent to, as "Hide Plus items and publish" does for the draft
 * (ADR 136); empty when the plan allows the version as it is.
 */
export function versionPlanHides(snapshot: PageSnapshot, plan: PagePlan, now: Date): PlanHiddenItem[] {
  return publishGate(snapshot, plan, now).ok ? [] : planHiddenItems(snapshot, now);
}

export const VERSION_SUMMARY_TEXTS = {
  first: "First published version",
  /** The version before it is no longer kept (ADR 093). */
  oldestKept: "Oldest version kept",
  /** Published again with the same content: under another plan, or after a rollback to it. */
  same: "No changes to your content",
} as const;

/** At most this many changes are named; the rest are counted. */
const MAX_PARTS = 4;

/** "1 link added", "2 links edited": a part for each kind of change counted above zero, in the order given. */
const counted = (one: string, many: string, changes: [n: number, what: string][]) => changes.filter(([n]) => n > 0).map(([n, what]) => `${n} ${n === 1 ? one : many} ${what}`);

/** Profile fields grouped as the owner knows them, each group named once when any of its fields changed. */
const PROFILE_GROUPS: [label: string, fields: (keyof PageProfile)[]][] = [
  ["display name changed", ["displayName"]],
  ["bio changed", ["bio"]],
  ["picture changed", ["profilePictureUrl", "profilePictureFullwidthUrl", "profilePictureStyle", "profilePictureIconSubtype", "profilePictureFullwidthSubtype", "initialsText", "initialsBgColor"]],
  ["theme changed", ["selectedThemeName"]],
  ["colours changed", ["customPageBackgroundColor", "customButtonBackgroundColor", "customButtonBorderColor"]],
  ["button style changed", ["buttonShapeStyle"]],
  ["font changed", ["customFontPairingName"]],
  ["social icon position changed", ["socialLinksPosition"]],
  ["branding changed", ["removeBranding", "hidePlatformBranding"]],
  ["long-form text changed", ["longFormText"]],
  ["SEO settings changed", ["seoTitle", "seoDescription"]],
  ["QR code button changed", ["qrCodeVisible"]],
];

/** A link's content, apart from its place and its switch. */
function linkContent(l: PageLink): string {
  return JSON.stringify([l.title, l.url, l.linkType, l.data, l.isMainButton, l.thumbnailUrl, l.scheduleStartTime, l.scheduleEndTime]);
}

/** The ids of `xs` in the order given by `order`, for comparing the order of the rows two versions share. */
function orderOf<T extends { id: string }>(xs: T[], keep: Set<string>, order: (a: T, b: T) => number): string {
  return xs
    .filter((x) => keep.has(x.id))
    .sort((a, b) => order(a, b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((x) => x.id)
    .join(",");
}

function linkParts(before: PageSnapshot, after: PageSnapshot): string[] {
  const old = new Map(before.links.map((l) => [l.id, l]));
  const now = new Map(after.links.map((l) => [l.id, l]));
  const added = after.links.filter((l) => !old.has(l.id)).length;
  const removed = before.links.filter((l) => !now.has(l.id)).length;
  let edited = 0;
  let hidden = 0;
  let shown = 0;
  let moved = 0;
  const both = new Set<string>();
  for (const l of after.links) {
    const was = old.get(l.id);
    if (!was) continue;
    both.add(l.id);
    if (linkContent(l) !== linkContent(was)) edited += 1;
    if (was.isActive && !l.isActive) hidden += 1;
    if (!was.isActive && l.isActive) shown += 1;
    if (was.parentListId !== l.parentListId) moved += 1;
  }
  const parts = counted("link", "links", [[added, "added"], [removed, "removed"], [edited, "edited"], [hidden, "hidden"], [shown, "shown again"], [moved, "moved to another list"]]);
  const byIndex = (a: PageLink, b: PageLink) => a.orderIndex - b.orderIndex;
  if (!moved && orderOf(before.links, both, byIndex) !== orderOf(after.links, both, byIndex)) parts.push("links reordered");
  return parts;
}

function listParts(before: PageSnapshot, after: PageSnapshot): string[] {
  const old = new Map(before.lists.map((l) => [l.id, l]));
  const now = new Set(after.lists.map((l) => l.id));
  const added = after.lists.filter((l) => !old.has(l.id)).length;
  const removed = before.lists.filter((l) => !now.has(l.id)).length;
  const renamed = after.lists.filter((l) => old.has(l.id) && old.get(l.id)!.title !== l.title).length;
  return counted("list", "lists", [[added, "added"], [removed, "removed"], [renamed, "renamed"]]);
}

function socialParts(before: PageSnapshot, after: PageSnapshot): string[] {
  const old = new Map(before.socialLinks.map((l) => [l.id, l]));
  const now = new Set(after.socialLinks.map((l) => l.id));
  const added = after.socialLinks.filter((l) => !old.has(l.id)).length;
  const removed = before.socialLinks.filter((l) => !now.has(l.id)).length;
  const changed = after.socialLinks.filter((l) => {
    const was = old.get(l.id);
    return was && (was.url !== l.url || was.platform !== l.platform || was.isVisible !== l.isVisible);
  }).length;
  const both = new Set(after.socialLinks.filter((l) => old.has(l.id)).map((l) => l.id));
  const byOrder = (a: { displayOrder: number }, b: { displayOrder: number }) => a.displayOrder - b.displayOrder;
  const parts = counted("social icon", "social icons", [[added, "added"], [removed, "removed"], [changed, "changed"]]);
  if (orderOf(before.socialLinks, both, byOrder) !== orderOf(after.socialLinks, both, byOrder)) parts.push("social icons reordered");
  return parts;
}

function profileParts(before: PageProfile, after: PageProfile): string[] {
  const parts: string[] = [];
  for (const [label, fields] of PROFILE_GROUPS) if (fields.some((f) => before[f] !== after[f])) parts.push(label);
  if (before.longFormText === after.longFormText && before.longFormTextVisible !== after.longFormTextVisible) {
    parts.push(after.longFormTextVisible ? "long-form text shown" : "long-form text hidden");
  }
  return parts;
}

/**
 * What changed from `before` to `after`, as one line. `before` is null for the first version, or
 * "pruned" when the version before is no longer kept.
 */
export function versionSummary(before: PageSnapshot | null | "pruned", after: PageSnapshot): string {
  if (before === null) return VERSION_SUMMARY_TEXTS.first;
  if (before === "pruned") return VERSION_SUMMARY_TEXTS.oldestKept;
  const parts = [...linkParts(before, after), ...listParts(before, after), ...socialParts(before, after), ...profileParts(before.profile, after.profile)];
  if (parts.length === 0) return VERSION_SUMMARY_TEXTS.same;
  const named = parts.slice(0, MAX_PARTS);
  const rest = parts.length - named.length;
  const line = named.join(", ") + (rest > 0 ? ` and ${rest} more ${rest === 1 ? "change" : "changes"}` : "");
  return line[0]!.toUpperCase() + line.slice(1);
}
