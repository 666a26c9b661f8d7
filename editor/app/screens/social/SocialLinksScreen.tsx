/**
 * Social Links (/dashboard/social-links): add a platform (each once), edit the handle, hide, delete,
 * drag to reorder (display_order from 1); the QR-code entry always last, its visibility on the profile.
 * Each change is based on the revision on screen; one refused because another tab changed the same
 * thing meanwhile brings the Reload offer (ADR 069).
 */
import { GripVertical, Pencil, QrCode, Share2, Trash2 } from "lucide-react";
import { startTransition, useCallback, useRef, useState } from "react";
import { toast } from "../../toast.tsx";
import { DASH } from "#core/dashboard-texts.ts";
import { LIMITS } from "#core/limits.ts";
import { getPlatform, PLATFORM_IDS, SOCIAL_PLATFORMS, type SocialPlatform } from "#core/platforms.ts";
import { cleanHandle, handleOf } from "#core/social-handle.ts";
import type { BrandIconPaths } from "#renderer/components/brand-icons.ts";
import { BrandIcon } from "#renderer/components/icons.tsx";
import type { InferResponseType } from "hono/client";
import { ApiFailure, api, unwrap } from "../../api.ts";
import { useBrandIcons } from "../../components/brand-icons.ts";
import { moveItem, SortableGroup, SortableItem, SortableList, type SortProps } from "../../components/sortable.tsx";
import { useStaleWrite } from "../../components/StaleWrite.tsx";
import { RowMenu } from "../../components/row-menu.tsx";
import { PlusBadge, PlusMark } from "../../components/plus-badge.tsx";
import { Button } from "../../components/button.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { useRowFocus } from "../../components/focus.ts";
import { Confirm, Modal } from "../../components/modal.tsx";
import { useBlocked } from "../../components/use-blocked.ts";
import { VisibilitySwitch } from "../../components/visibility-switch.tsx";
import { mergeLatest, versionedWrite } from "../../revisions.ts";
import { isLite, useDashboard } from "../../store.ts";
import { LoadFailed, useListLoad } from "../LoadFailed.tsx";
import { FieldError } from "../../../components/auth/fields.tsx";
import { ScreenHeader, ScreenLoading } from "../ScreenHeader.tsx";

type Social = Extract<InferResponseType<typeof api["social-links"]["$get"]>, { socialLinks: unknown }>["socialLinks"][number];

const social = api["social-links"];

/** A write of one social link, based on the revision on screen, after this tab's earlier writes of it. */
const writeSocial = <T,>(item: Social, send: (revision: number) => Promise<T>, revisionOf: (answer: T) => number | undefined) =>
  versionedWrite(`social:${item.id}`, item.revision, send, revisionOf);
/** A write of the list itself (its order, the QR entry), based on its revision on screen. */
const writeSocialOrder = <T extends { orderRevision: number }>(base: number, send: (revision: number) => Promise<T>) => versionedWrite("social-order", base, send, (a) => a.orderRevision);

function Row({ item, icons, sort, onEdit, onDelete, onToggle }: { item: Social; icons: BrandIconPaths; sort: SortProps; onEdit(): void; onDelete(): void; onToggle(v: boolean): void }) {
  const platform = getPlatform(item.platform)!;
  return (
    <li ref={sort.ref} style={sort.style} data-testid="social-row" className={`flex items-center gap-2 rounded-lg border border-slate-200 bg-white p-3 ${item.isVisible ? "" : "opacity-50"}`}>
      <button type="button" {...sort.handle} aria-label={`Reorder ${platform.name}`} className="touch-none cursor-grab rounded p-1 text-slate-500 hover:bg-slate-100">
        <GripVertical aria-hidden className="size-5" />
      </button>
      <span className="text-slate-700">
        <BrandIcon platform={platform.id} path={icons[platform.id]} />
      </span>
      <div className="min-w-0 flex-1">
        <p className="font-medium">{platform.name}</p>
        <p className="truncate text-xs text-slate-600">{item.url}</p>
      </div>
      <VisibilitySwitch checked={item.isVisible} onChange={onToggle} label={`Visible: ${platform.name}`} />
      <RowMenu label={`Actions for ${platform.name}`} className="min-w-40">
        {({ MenuItem }) => (
          <>
            <MenuItem onSelect={onEdit}>
              <Pencil aria-hidden className="size-4" /> Edit
            </MenuItem>
            <MenuItem onSelect={onDelete} danger>
              <Trash2 aria-hidden className="size-4" /> Delete
            </MenuItem>
          </>
        )}
      </RowMenu>
    </li>
  );
}

export default function SocialLinksScreen() {
  const me = useDashboard((s) => s.me);
  const edited = useDashboard((s) => s.edited);
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  const socialBlocked = useBlocked("unlimited_social_links");
  // The screen offers every platform, so it draws every mark.
  const icons = useBrandIcons(PLATFORM_IDS);
  const [items, setItems] = useState<Social[] | null>(null);
  const [qrVisible, setQrVisible] = useState(true);
  const [orderRevision, setOrderRevision] = useState(0);
  const [dialog, setDialog] = useState<{ platform: SocialPlatform; item: Social | null } | null>(null);
  const [handle, setHandle] = useState("");
  const [error, setError] = useState("");
  const [deleting, setDeleting] = useState<Social | null>(null);
  const addGrid = useRef<HTMLUListElement>(null);
  // With no row left, focus goes to the first platform to add (where the deleted one comes back).
  const rowFocus = useRowFocus(() => addGrid.current?.querySelector("button") ?? document.getElementById("main"));

  /** The latest list, on screen and answered (throws when it could not be loaded). */
  const latest = useCallback(async () => {
    const body = await unwrap(api["social-links"].$get());
    // A transition: React draws the list in slices, leaving the page free meanwhile.
    startTransition(() => {
      setItems(body.socialLinks);
      setQrVisible(body.qrCodeVisible);
      setOrderRevision(body.orderRevision);
    });
    return body.socialLinks;
  }, []);
  const stale = useStaleWrite(async () => {
    await latest();
  });
  // The edit dialog's own: Reload brings in the other tab's handle if it changed it, else keeps the typed one.
  const dialogStale = useStaleWrite(async () => {
    const shown = dialog?.item;
    const fresh = await latest();
    if (!dialog || !shown) return null;
    const now = fresh.find((s) => s.id === shown.id);
    if (!now) {
      setDialog(null);
      return null;
    }
    const handleNow = handleOf(dialog.platform, now.url);
    setHandle(mergeLatest({ handle }, { handle: handleOf(dialog.platform, shown.url) }, { handle: handleNow }).values.handle);
    setError("");
    setDialog({ platform: dialog.platform, item: now });
    return document.getElementById("social-handle");
  });
  const { failed: loadFailed, load, changed } = useListLoad(latest, () => toast.error(DASH.socialLoadFailed));
  // A first load that failed is not still loading: say so and offer the retry (ADR 120).
  if (!items) return loadFailed ? <LoadFailed text={DASH.socialLoadFailed} onRetry={() => void load()} /> : <ScreenLoading path="/dashboard/social-links" />;

  const lite = isLite(me);
  const used = new Set(items.map((s) => s.platform));
  const available = SOCIAL_PLATFORMS.filter((p) => !used.has(p.id));
  const visibleCount = items.filter((s) => s.isVisible).length;

  function openAdd(platform: SocialPlatform) {
    if (lite && items!.length >= LIMITS.LITE_MAX_SOCIAL_TOTAL) return openUpgrade("unlimited_social_links");
    setHandle("");
    setError("");
    dialogStale.clear();
    setDialog({ platform, item: null });
  }

  async function save(e: React.FormEvent) {
    e.preventDefault();
    if (!dialog) return;
    const clean = cleanHandle(dialog.platform, handle);
    if (clean === null) return setError(dialog.platform.id === "whatsapp" ? DASH.whatsappInvalid : DASH.handleRequired);
    try {
      if (dialog.item) {
        const item = dialog.item;
        await writeSocial(item, (revision) => unwrap(social[":id"].$patch({ param: { id: item.id }, json: { handle, revision } })), (a) => a.socialLink.revision);
        toast.success(DASH.socialUpdated);
      } else {
        const added = await unwrap(social.$post({ json: { platform: dialog.platform.id, handle } }));
        toast.success(DASH.socialAdded(dialog.platform.name), {
          description: added.socialLink.isVisible ? undefined : `It is hidden for now: Plinth Lite shows up to ${LIMITS.LITE_MAX_VISIBLE_SOCIAL} social links.`,
        });
      }
      setDialog(null);
      changed();
    } catch (err) {
      if (dialogStale.report(err)) return;
      if (err instanceof ApiFailure && err.status === 402) {
        setDialog(null);
        openUpgrade(err.details.feature ?? "unlimited_social_links");
      } else if (err instanceof ApiFailure && err.status === 400) setError(err.message);
      else toast.error(dialog.item ? DASH.socialUpdateFailed : DASH.socialAddFailed);
    }
  }

  async function toggle(item: Social, isVisible: boolean) {
    if (isVisible && lite && visibleCount >= LIMITS.LITE_MAX_VISIBLE_SOCIAL) return openUpgrade("unlimited_social_links");
    try {
      await writeSocial(item, (revision) => unwrap(social[":id"].visibility.$patch({ param: { id: item.id }, json: { isVisible, revision } })), (a) => a.socialLink.revision);
      changed();
    } catch (err) {
      if (stale.report(err)) return;
      if (err instanceof ApiFailure && err.status === 402) openUpgrade("unlimited_social_links");
      else toast.error(DASH.socialUpdateFailed);
    }
  }

  async function toggleQr(visible: boolean) {
    try {
      const saved = await writeSocialOrder(orderRevision, (revision) => unwrap(social["qr-code"].$put({ json: { visible, revision } })));
      setQrVisible(visible);
      setOrderRevision(saved.orderRevision);
      edited();
    } catch (err) {
      if (!stale.report(err)) toast.error(DASH.socialUpdateFailed);
    }
  }

  async function doDelete() {
    if (!deleting) return;
    const item = deleting;
    try {
      await writeSocial(item, (revision) => unwrap(social[":id"].$delete({ param: { id: item.id }, query: { revision: String(revision) } })), () => undefined);
      toast.success(DASH.socialRemoved);
      rowFocus.removed();
      setDeleting(null);
      changed();
    } catch (err) {
      setDeleting(null);
      if (!stale.report(err)) toast.error(DASH.socialRemoveFailed);
    }
  }

  async function onMove(activeId: string, overId: string) {
    if (!items) return;
    const next = moveItem(items, items.findIndex((s) => s.id === activeId), items.findIndex((s) => s.id === overId));
    setItems(next.map((s, i) => ({ ...s, displayOrder: i + 1 })));
    try {
      const saved = await writeSocialOrder(orderRevision, (revision) => unwrap(social.order.$put({ json: { ids: next.map((s) => s.id), revision } })));
      setItems(saved.socialLinks);
      setOrderRevision(saved.orderRevision);
      toast.success(DASH.socialReordered);
      edited();
    } catch (err) {
      // A stale order stays on screen under the Reload offer; any other failure goes back at once.
      if (stale.report(err)) return;
      toast.error(DASH.socialReorderFailed);
      void load();
    }
  }
  const name = (id: unknown) => getPlatform(items.find((s) => s.id === id)?.platform ?? "")?.name ?? "item";

  return (
    <section aria-labelledby="screen-title">
      {stale.alert}
      <ScreenHeader path="/dashboard/social-links" />
      <p className="mt-1 text-slate-600">
        {items.length} social links, {visibleCount} visible{lite ? ` (Plinth Lite shows up to ${LIMITS.LITE_MAX_VISIBLE_SOCIAL})` : ""}.
        {lite ? (
          <span className="ml-2 inline-block align-middle">
            {socialBlocked ? <PlusMark feature="unlimited_social_links" /> : <PlusBadge feature="unlimited_social_links" />}
          </span>
        ) : null}
      </p>

      <h2 className="mt-6 text-lg font-semibold">Add Social Platform</h2>
      {available.length === 0 ? (
        <p className="mt-2 text-slate-600">You've added all available social platforms!</p>
      ) : (
        <ul ref={addGrid} className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
          {available.map((p) => (
            <li key={p.id}>
              <Button variant="secondary" className="w-full" onClick={() => openAdd(p)}>
                <BrandIcon platform={p.id} path={icons[p.id]} />
                {p.name}
              </Button>
            </li>
          ))}
        </ul>
      )}

      <h2 className="mt-6 text-lg font-semibold">Your Social Links</h2>
      {items.length === 0 ? (
        <div className="mt-2">
          <EmptyState
            icon={Share2}
            headingLevel={3}
            title="No social links yet"
            text="Add the profiles you want visitors to find: they show as icons on your page."
            action={
              <Button variant="secondary" onClick={() => addGrid.current?.querySelector("button")?.focus()}>
                Choose a platform
              </Button>
            }
          />
        </div>
      ) : null}
      <SortableList
        onMove={onMove}
        announcements={{
          onDragStart: ({ active }) => `Picked up ${name(active.id)}.`,
          onDragOver: ({ active, over }) => (over ? `${name(active.id)} is over ${name(over.id)}.` : `${name(active.id)} is not over a position.`),
          onDragEnd: ({ active, over }) => (over ? `${name(active.id)} dropped at the place of ${name(over.id)}.` : `${name(active.id)} dropped.`),
          onDragCancel: ({ active }) => `Reordering cancelled. ${name(active.id)} went back to its place.`,
        }}
        instructions="To reorder, press space to lift, use the arrow keys to move, press space again to drop, or escape to cancel."
      >
        <SortableGroup ids={items.map((s) => s.id)}>
          <ul className="mt-2 space-y-2">
            {items.map((s) => (
              <SortableItem key={s.id} id={s.id}>
                {(sort) => (
                  <Row
                    item={s}
                    icons={icons}
                    sort={sort}
                    onToggle={(v) => toggle(s, v)}
                    onDelete={() => setDeleting(s)}
                    onEdit={() => {
                      const p = getPlatform(s.platform)!;
                      setHandle(handleOf(p, s.url));
                      setError("");
                      dialogStale.clear();
                      setDialog({ platform: p, item: s });
                    }}
                  />
                )}
              </SortableItem>
            ))}
          </ul>
        </SortableGroup>
      </SortableList>
      <div className={`mt-2 flex items-center gap-2 rounded-lg border border-slate-200 bg-white p-3 ${qrVisible ? "" : "opacity-50"}`} data-testid="qr-row">
        {/* Spaces where the other rows have their reorder handle and actions menu, so the icon and the switch line up with theirs. */}
        <span aria-hidden className="w-7 shrink-0" />
        <QrCode aria-hidden className="size-5 shrink-0 text-slate-700" />
        <div className="min-w-0 flex-1">
          <p className="font-medium">QR Code</p>
          <p className="text-xs text-slate-600">Shows a QR code of your public page</p>
        </div>
        <VisibilitySwitch checked={qrVisible} onChange={toggleQr} label="Visible: QR Code" />
        <span aria-hidden className="w-7 shrink-0" />
      </div>

      <Modal
        open={dialog !== null}
        onOpenChange={(o) => !o && setDialog(null)}
        dirty={dialog !== null && handle !== (dialog.item ? handleOf(dialog.platform, dialog.item.url) : "")}
        title={dialog ? `${dialog.item ? "Edit" : "Add"} ${dialog.platform.name} Link` : ""}>
        {dialog ? (
          <form onSubmit={save} noValidate>
            {dialogStale.alert}
            <label htmlFor="social-handle" className="mb-1 block text-sm font-medium">
              {dialog.item ? "Username/Handle" : dialog.platform.handleLabel}
            </label>
            <div className="flex rounded-md border border-slate-300">
              <span className="flex items-center rounded-l-md bg-slate-100 px-2 text-xs text-slate-700" aria-hidden>
                {dialog.platform.baseUrl}
              </span>
              <input
                id="social-handle"
                value={handle}
                onChange={(e) => setHandle(e.target.value)}
                inputMode={dialog.platform.id === "whatsapp" ? "tel" : "text"}
                aria-describedby={error ? "social-handle-error" : undefined}
                aria-invalid={error ? true : undefined}
                className="min-w-0 flex-1 rounded-r-md px-2 py-2 text-sm"
              />
            </div>
            <FieldError id="social-handle-error" message={error} />
            <div className="mt-4 flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setDialog(null)}>
                Cancel
              </Button>
              <Button type="submit">{dialog.item ? "Save Changes" : "Add Link"}</Button>
            </div>
          </form>
        ) : null}
      </Modal>
      <Confirm
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete Social Link"
        description={`Are you sure you want to remove your ${getPlatform(deleting?.platform ?? "")?.name ?? ""} link? This action cannot be undone.`}
        confirm="Delete"
        danger
        onConfirm={doDelete}
        focusOnClose={rowFocus.onClose}
      />
    </section>
  );
}
