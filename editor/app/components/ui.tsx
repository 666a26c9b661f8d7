/**
 * Small shared pieces: buttons, the upgrade prompt, the dialogs (their Radix parts in dialog.tsx).
 */
import { Crown, type LucideIcon } from "lucide-react";
import { useEffect, useRef, useState, type ComponentPropsWithRef, type ReactNode, type RefObject } from "react";
import { DASH } from "#core/dashboard-texts.ts";
import { FEATURE_LABELS } from "#core/feature-labels.ts";
import { LINK_TYPE_LABELS } from "#core/link-types.ts";
import { CHECKOUT_FAILED, PLUS_PRICE_LABEL } from "#core/plus-price.ts";
import { api, unwrap } from "../api.ts";
import { toast } from "../toast.tsx";
import { useDashboard } from "../store.ts";
import { loadOnce } from "./load-once.ts";

type Variant = "primary" | "secondary" | "danger" | "ghost";
const VARIANTS: Record<Variant, string> = {
  primary: "bg-brand-600 text-white hover:bg-brand-700 disabled:bg-slate-300 disabled:text-slate-600",
  secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-400",
  danger: "bg-red-600 text-white hover:bg-red-700 disabled:bg-slate-300",
  ghost: "text-slate-700 hover:bg-slate-100",
};

export function Button({ variant = "primary", className = "", ...props }: ComponentPropsWithRef<"button"> & { variant?: Variant }) {
  return (
    <button
      type="button"
      {...props}
      className={`inline-flex min-h-10 items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium disabled:cursor-not-allowed ${VARIANTS[variant]} ${className}`}
    />
  );
}

/**
 * What a list shows while it has nothing in it: an icon, what goes here, and the one thing to do
 * next (optional where there is nothing the owner can do about it yet).
 */
export function EmptyState({ icon: Icon, title, text, action, headingLevel = 2 }: { icon: LucideIcon; title: string; text: ReactNode; action?: ReactNode; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="flex flex-col items-center rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center sm:p-10" data-testid="empty-state">
      <span aria-hidden className="mb-3 flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Icon className="size-6" />
      </span>
      <Heading className="text-lg font-semibold">{title}</Heading>
      <p className="mx-auto mt-1 max-w-prose text-slate-600">{text}</p>
      {action ? <div className="mt-4">{action}</div> : null}
    </div>
  );
}

/** The first tab stop of a screen: straight past the header and the navigation to the screen itself. */
export function SkipLink({ to }: { to: string }) {
  return (
    <a
      href={`#${to}`}
      className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:font-medium focus:text-brand-700 focus:shadow-lg focus:ring-2 focus:ring-brand-600"
    >
      Skip to content
    </a>
  );
}

/** Whether the publish gate currently refuses the draft for `feature` (from GET /api/publish/state). */
export function useBlocked(feature: string): boolean {
  return useDashboard((s) => !!s.publish?.blockedFeatures.includes(feature));
}

/**
 * The look of the Plus mark, never broken over two lines: in the PLUS badge, and on its own where
 * the mark sits inside another control (a menu item, a navigation link).
 */
export function PlusTag() {
  return (
    <span data-testid="plus-tag" className="inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded bg-amber-100 px-1.5 py-0.5 text-xs font-bold leading-4 text-amber-900">
      <Crown aria-hidden className="size-3" /> PLUS
    </span>
  );
}

/** The element that last took the focus, anywhere in the page (the dialogs' opener, ADR 124). */
let lastFocused: Element | null = null;
if (typeof document !== "undefined") document.addEventListener("focusin", (e) => (lastFocused = e.target as Element), true);
export const lastFocusedElement = () => lastFocused;

/** Where focus goes when a dialog closes, given the element that opened it (null: the dialog's default). */
export type FocusOnClose = (opener: HTMLElement | null) => HTMLElement | null | undefined;

/**
 * Focus after a dialog opened from a row's menu (a link, a social icon). Mark the row's menu button
 * with `data-row-menu`. When the dialog closes, focus goes back to that button, unless `removed()`
 * was called (the dialog deleted the row): then to the next row's menu button, else the previous
 * one, else `fallback` (the screen's Add button).
 */
export function useRowFocus(fallback: () => HTMLElement | null | undefined) {
  // The rows' menu buttons as they were when the row was removed: the list may re-render without
  // the row before the dialog has closed, and the neighbours are found from this order.
  const removedFrom = useRef<HTMLElement[] | null>(null);
  const onClose: FocusOnClose = (opener) => {
    const rows = removedFrom.current;
    removedFrom.current = null;
    if (!rows) return opener?.isConnected ? opener : fallback();
    const at = opener ? rows.indexOf(opener) : -1;
    if (at < 0) return fallback();
    const onPage = (list: HTMLElement[]) => list.find((el) => el.isConnected);
    return onPage(rows.slice(at + 1)) ?? onPage(rows.slice(0, at).reverse()) ?? fallback();
  };
  return {
    /** Call before closing the dialog whose work removed the row. */
    removed: () => {
      removedFrom.current = [...document.querySelectorAll<HTMLElement>("[data-row-menu]")];
    },
    onClose,
  };
}

export type ModalProps = {
  open: boolean;
  onOpenChange(o: boolean): void;
  title: string;
  description?: string;
  children: ReactNode;
  /** Where focus goes on close when the button that opened the dialog is no longer on the page. */
  returnFocusTo?: RefObject<HTMLElement | null>;
  /** Where focus goes on close, chosen by the screen (overrides returnFocusTo). */
  focusOnClose?: FocusOnClose;
  /**
   * The dialog holds what the owner typed or chose and has not saved: Escape, a click outside and
   * Close then ask before it goes (ADR 140). The dialog's own Cancel still closes at once.
   */
  dirty?: boolean;
};

export type ConfirmProps = {
  open: boolean;
  onOpenChange(o: boolean): void;
  title: string;
  description: string;
  cancel: string;
  confirm: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  /** Where focus goes on close, chosen by the screen; by default back to the opener. */
  focusOnClose?: FocusOnClose;
  /** More to read before confirming, under the description (a list of what the action changes). */
  children?: ReactNode;
};

/**
 * The dialogs' Radix parts (the dialog stack, focus trap and scroll lock, about 12 KB gzip) load
 * when a dialog of the page first opens (ADR 132); from then on every dialog renders them, closed
 * or open, so focus returns and the stack behave as before.
 */
type DialogParts = typeof import("./dialog.tsx");
const dialogs = loadOnce(() => import("./dialog.tsx"));

function useDialogParts(open: boolean): DialogParts | null {
  const [parts, setParts] = useState(dialogs.loaded);
  useEffect(() => {
    if (open && !parts) dialogs.load().then((p) => setParts(() => p), () => undefined);
  }, [open, parts]);
  return parts;
}

export function Modal(props: ModalProps) {
  const parts = useDialogParts(props.open);
  return parts ? <parts.ModalBox {...props} /> : null;
}

export function Confirm(props: ConfirmProps) {
  const parts = useDialogParts(props.open);
  return parts ? <parts.ConfirmBox {...props} /> : null;
}

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
