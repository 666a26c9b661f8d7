/**
 * Page Layout (/dashboard/links): the owner's links and lists, each change saved to the draft as it
 * happens, based on the revision on screen (a change made meanwhile in another tab is refused, and
 * the screen offers to reload it: ADR 069). Drag to reorder with @dnd-kit (mouse 5 px, touch 120 ms
 * long press, keyboard).
 */
import type { Announcements } from "@dnd-kit/core";
import { ArrowDown, ArrowUp, CalendarClock, ExternalLink, Link2, GripVertical, Pencil, Play, Plus, Star, Trash2, FolderPlus } from "lucide-react";
import { Tabs } from "radix-ui";
import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import { toast } from "../../toast.tsx";
import { DASH } from "#core/dashboard-texts.ts";
import { LINK_TYPE_LABELS } from "#core/link-types.ts";
import { LIMITS } from "#core/limits.ts";
import { linkPlusFeatures } from "#core/plus-marks.ts";
import { isLive } from "#core/visible-content.ts";
import { scheduleBadge } from "#core/schedule-badge.ts";
import { isLinkAddress, linkAddressOf } from "#core/url-rule.ts";
import { ApiFailure, api, unwrap } from "../../api.ts";
import { moveItem, SortableGroup, SortableItem, SortableList, type SortProps } from "../../components/sortable.tsx";
import { useStaleWrite } from "../../components/StaleWrite.tsx";
import { dateAtTime } from "../../../components/dates.ts";
import { RowMenu } from "../../components/row-menu.tsx";
import { PlusBadge, PlusMark } from "../../components/plus-badge.tsx";
import { Button } from "../../components/button.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { useRowFocus } from "../../components/focus.ts";
import { Confirm, Modal } from "../../components/modal.tsx";
import { PlusTag } from "../../components/plus-tag.tsx";
import { loadOnce } from "../../components/load-once.ts";
import { useBlocked } from "../../components/use-blocked.ts";
import { VisibilitySwitch } from "../../components/visibility-switch.tsx";
import { mergeLatest, versionedWrite } from "../../revisions.ts";
import { LoadFailed, useListLoad } from "../LoadFailed.tsx";
import { isLite, useDashboard } from "../../store.ts";
import { writeLink } from "./write-link.ts";
import type { Link, LinkList, LinksData } from "./types.ts";
import { ScreenHeader, ScreenLoading } from "../ScreenHeader.tsx";



export function ScheduleBadge({ link }: { link: Link }) {
  const b = scheduleBadge(link.scheduleStartTime ? new Date(link.scheduleStartTime) : null, link.scheduleEndTime ? new Date(link.scheduleEndTime) : null, new Date());
  if (!b) return null;
  const [text, cls] =
    b.kind === "scheduled"
      ? [`Starts ${dateAtTime(b.at)}`, "bg-blue-100 text-blue-900"]
      : b.kind === "expired"
        ? [`Expired ${dateAtTime(b.at)}`, "bg-red-100 text-red-900"]
        : [b.at ? `Ends ${dateAtTime(b.at)}` : "Active (no end date)", "bg-emerald-100 text-emerald-900"];
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${cls}`}>{text}</span>;
}

/** How addresses are recognised as players (core/embeds.ts): loaded when the list first shows a player. */
const embeds = loadOnce(() => import("#core/embeds.ts"));

/**
 * A standard link shown as a player (ADR 215): the badge names the service the page's player loads.
 * It shows once the recognition code has arrived, a moment after the list for the first player.
 */
export function PlayerBadge({ link }: { link: Link }) {
  const data = (link.linkSpecificData ?? {}) as { player?: string };
  const player = link.linkType === "standard_url" && data.player === "on";
  const [recognize, setRecognize] = useState(() => embeds.loaded()?.recognizeEmbed ?? null);
  useEffect(() => {
    if (player && !recognize) embeds.load().then((m) => setRecognize(() => m.recognizeEmbed), () => undefined);
  }, [player, recognize]);
  const embed = player && recognize ? recognize(link.url) : null;
  if (!embed) return null;
  return (
    <span className="inline-flex items-center gap-1 rounded bg-violet-100 px-1.5 text-xs text-violet-900" data-testid="player-badge">
      <Play aria-hidden className="size-3" /> Player: {embed.label}
    </span>
  );
}

/** A link saved under an older URL rule that the page cannot link to (ADR 096): editing it asks for a valid URL. */
function AddressBadge({ link }: { link: Link }) {
  const address = linkAddressOf({ ...link, data: (link.linkSpecificData ?? {}) as { url?: string } });
  if (address === null || isLinkAddress(link.linkType, address.trim())) return null;
  return <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-900">{DASH.linkAddressInvalid}</span>;
}

interface Group {
  list: LinkList | null;
  links: Link[];
}

function groupsOf(links: Link[], lists: LinkList[]): Group[] {
  const known = new Set(lists.map((l) => l.id));
  return [
    { list: null, links: links.filter((l) => !l.parentListId || !known.has(l.parentListId)) },
    ...lists.map((list) => ({ list, links: links.filter((l) => l.parentListId === list.id) })),
  ];
}

function LinkRow(props: {
  link: Link;
  lists: LinkList[];
  /** The row's part in the sortable list; none in the Scheduled tab. */
  sort?: SortProps;
  onEdit(): void;
  onDelete(): void;
  onChanged(): void;
  /** True when the failure was a stale write, which the screen then offers to reload. */
  onStale(err: unknown): boolean;
}) {
  const { link } = props;
  const me = useDashboard((s) => s.me);
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  const { sort } = props;
  const plusFeatures = linkPlusFeatures(link);

  async function toggle(isActive: boolean) {
    try {
      await writeLink(link, (revision) => unwrap(api.links[":id"].visibility.$patch({ param: { id: link.id }, json: { isActive, revision } })));
      toast.success(isActive ? DASH.linkActivated : DASH.linkHidden);
      props.onChanged();
    } catch (e) {
      if (!props.onStale(e)) toast.error("Error", { description: DASH.linkUpdateFailed });
    }
  }
  async function makeMain() {
    if (isLite(me)) return openUpgrade("main_button");
    try {
      await writeLink(link, (revision) => unwrap(api.links[":id"].main.$put({ param: { id: link.id }, json: { isMainButton: !link.isMainButton, revision } })));
      toast.success(DASH.linkUpdated);
      props.onChanged();
    } catch (e) {
      if (props.onStale(e)) return;
      if (e instanceof ApiFailure && e.details.feature) openUpgrade(e.details.feature);
      else toast.error("Error", { description: DASH.linkUpdateFailed });
    }
  }
  async function moveTo(listId: string | null) {
    try {
      await writeLink(link, (revision) =>
        unwrap(
          api.links[":id"].$patch({
            param: { id: link.id },
            json: { linkType: link.linkType, title: link.title, url: link.url === "#" ? "" : link.url, data: link.linkSpecificData, parentListId: listId, revision },
          }),
        ),
      );
      toast.success(DASH.linkUpdated);
      props.onChanged();
    } catch (e) {
      if (!props.onStale(e)) toast.error("Error", { description: DASH.linkUpdateFailed });
    }
  }

  return (
    <li
      ref={sort?.ref}
      style={sort?.style}
      data-testid="link-row"
      className={`flex items-center gap-2 rounded-lg border border-slate-200 bg-white p-3 ${link.isActive ? "" : "opacity-50"} ${sort?.isDragging ? "shadow-lg" : ""}`}
    >
      {sort ? (
        <button
          type="button"
          {...sort.handle}
          aria-label={`Reorder ${link.title}`}
          className="touch-none cursor-grab rounded p-1 text-slate-500 hover:bg-slate-100"
        >
          <GripVertical aria-hidden className="size-5" />
        </button>
      ) : null}
      {link.thumbnailUrl ? <img src={link.thumbnailUrl} alt="" className="size-10 shrink-0 rounded object-cover" loading="lazy" /> : null}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="truncate font-medium">{link.title}</span>
          <span className="rounded bg-slate-100 px-1.5 text-xs text-slate-700">{LINK_TYPE_LABELS[link.linkType]}</span>
          {link.isMainButton ? (
            <span className="inline-flex items-center gap-1 rounded bg-amber-100 px-1.5 text-xs text-amber-900">
              <Star aria-hidden className="size-3" /> Main button
            </span>
          ) : null}
          <PlayerBadge link={link} />
          <ScheduleBadge link={link} />
          <AddressBadge link={link} />
          {plusFeatures.length > 0 ? <PlusMark feature={plusFeatures[0]!} /> : null}
        </div>
        {link.url && link.url !== "#" ? <p className="truncate text-xs text-slate-600">{link.url}</p> : null}
      </div>
      <VisibilitySwitch checked={link.isActive} onChange={toggle} label={`Visible: ${link.title}`} />
      <RowMenu label={`Actions for ${link.title}`} className="min-w-48">
        {({ MenuItem }) => (
          <>
            <MenuItem onSelect={props.onEdit}>
              <Pencil aria-hidden className="size-4" /> Edit
            </MenuItem>
            <MenuItem onSelect={makeMain}>
              <Star aria-hidden className="size-4" /> {link.isMainButton ? "Remove main button" : "Make main button"}
              {isLite(me) ? (
                <span className="ml-auto pl-2">
                  <PlusTag />
                </span>
              ) : null}
            </MenuItem>
            {props.lists
              .filter((l) => l.id !== link.parentListId)
              .map((l) => (
                <MenuItem key={l.id} onSelect={() => moveTo(l.id)}>
                  <FolderPlus aria-hidden className="size-4" /> Move to {l.title}
                </MenuItem>
              ))}
            {link.parentListId ? (
              <MenuItem onSelect={() => moveTo(null)}>
                <FolderPlus aria-hidden className="size-4" /> Remove from list
              </MenuItem>
            ) : null}
            <MenuItem onSelect={props.onDelete} danger>
              <Trash2 aria-hidden className="size-4" /> Delete
            </MenuItem>
          </>
        )}
      </RowMenu>
    </li>
  );
}

/** The link dialog (its fields, file uploads and type cards) loads when it is first opened (ADR 132). */
type LinkDialogPart = (typeof import("./LinkDialog.tsx"))["LinkDialog"];
let linkDialog: LinkDialogPart | null = null;

function useLinkDialog(wanted: boolean): LinkDialogPart | null {
  const [part, setPart] = useState<LinkDialogPart | null>(() => linkDialog);
  useEffect(() => {
    if (wanted && !part)
      import("./LinkDialog.tsx").then(
        (m) => setPart(() => (linkDialog = m.LinkDialog)),
        () => undefined,
      );
  }, [wanted, part]);
  return part;
}

export default function LinksScreen() {
  const me = useDashboard((s) => s.me);
  const edited = useDashboard((s) => s.edited);
  const linksBlocked = useBlocked("unlimited_links");
  const [data, setData] = useState<LinksData | null>(null);
  const [editing, setEditing] = useState<Link | null | "new">(null);
  const LinkDialog = useLinkDialog(editing !== null);
  const [deleting, setDeleting] = useState<Link | null>(null);
  const [listDialog, setListDialog] = useState<LinkList | "new" | null>(null);
  const [deletingList, setDeletingList] = useState<LinkList | null>(null);
  const [listTitle, setListTitle] = useState("");
  const [listError, setListError] = useState("");
  const addRef = useRef<HTMLButtonElement>(null);
  const rowFocus = useRowFocus(() => addRef.current);

  /** The latest links, lists and order revision, on screen and answered (throws when they could not be loaded). */
  const latest = useCallback(async (): Promise<LinksData> => {
    const body = await unwrap(api.links.$get());
    const next = { links: body.links, lists: body.lists, orderRevision: body.orderRevision };
    // A transition: React draws the list in slices, leaving the page free meanwhile.
    startTransition(() => setData(next));
    return next;
  }, []);
  const stale = useStaleWrite(async () => {
    await latest();
  });
  // The rename dialog's own: Reload brings in the other tab's title if it changed it, else keeps the typed one.
  const listStale = useStaleWrite(async () => {
    const shown = listDialog;
    const fresh = await latest();
    if (!shown || shown === "new") return null;
    const now = fresh.lists.find((l) => l.id === shown.id);
    if (!now) {
      setListDialog(null);
      return null;
    }
    setListTitle(mergeLatest({ title: listTitle }, { title: shown.title }, { title: now.title }).values.title);
    setListError("");
    setListDialog(now);
    return document.getElementById("list-title");
  });
  function openListDialog(list: LinkList | "new") {
    setListTitle(list === "new" ? "" : list.title);
    setListError("");
    listStale.clear();
    setListDialog(list);
  }
  const { failed: loadFailed, load, changed } = useListLoad(latest, () => toast.error("Error", { description: DASH.linksLoadFailed }));

  // A first load that failed is not still loading: say so and offer the retry (ADR 120).
  if (!data) return loadFailed ? <LoadFailed text={DASH.linksLoadFailed} onRetry={() => void load()} /> : <ScreenLoading path="/dashboard/links" text="Loading components..." />;
  const { links, lists, orderRevision } = data;
  const groups = groupsOf(links, lists);
  const title = (id: unknown) => links.find((l) => l.id === id)?.title ?? "link";
  const position = (id: unknown) => {
    const g = groups.find((gr) => gr.links.some((l) => l.id === id));
    return g ? `${g.links.findIndex((l) => l.id === id) + 1} of ${g.links.length}` : "";
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${title(active.id)}, position ${position(active.id)}.`,
    onDragOver: ({ active, over }) => (over ? `${title(active.id)} moved to position ${position(over.id)}.` : `${title(active.id)} is not over a position.`),
    onDragEnd: ({ active, over }) => (over ? `${title(active.id)} dropped at position ${position(over.id)}.` : `${title(active.id)} dropped.`),
    onDragCancel: ({ active }) => `Reordering cancelled. ${title(active.id)} went back to its place.`,
  };

  async function saveOrder(next: Group[]) {
    const items = next.flatMap((g) => g.links.map((l) => ({ id: l.id, parentListId: g.list?.id ?? null })));
    const order = next.flatMap((g) => g.links);
    setData({ links: order.map((l, i) => ({ ...l, orderIndex: i })), lists: next.filter((g) => g.list).map((g) => g.list!), orderRevision });
    try {
      const saved = await versionedWrite(
        "links-order",
        orderRevision,
        (revision) => unwrap(api.links.order.$put({ json: { items, lists: next.filter((g) => g.list).map((g) => g.list!.id), revision } })),
        (a) => a.orderRevision,
      );
      setData({ links: saved.links, lists: saved.lists, orderRevision: saved.orderRevision });
      edited();
    } catch (err) {
      // A stale order stays on screen under the Reload offer; any other failure goes back at once.
      if (stale.report(err)) return;
      toast.error("Error", { description: DASH.linkUpdateFailed });
      void load();
    }
  }

  function onMove(activeId: string, overId: string) {
    const next = groups.map((g) => {
      const from = g.links.findIndex((l) => l.id === activeId);
      const to = g.links.findIndex((l) => l.id === overId);
      return from >= 0 && to >= 0 ? { ...g, links: moveItem(g.links, from, to) } : g;
    });
    void saveOrder(next);
  }

  function moveList(index: number, delta: number) {
    const lg = groups.slice(1);
    const target = index + delta;
    if (target < 0 || target >= lg.length) return;
    void saveOrder([groups[0]!, ...moveItem(lg, index, target)]);
  }

  async function doDelete() {
    if (!deleting) return;
    const link = deleting;
    try {
      await versionedWrite(`link:${link.id}`, link.revision, (revision) => unwrap(api.links[":id"].$delete({ param: { id: link.id }, query: { revision: String(revision) } })), () => undefined);
      toast.success(DASH.linkDeleted);
      rowFocus.removed();
      setDeleting(null);
      changed();
    } catch (err) {
      setDeleting(null);
      if (!stale.report(err)) toast.error("Error", { description: DASH.linkDeleteFailed });
    }
  }

  async function saveList(e: React.FormEvent) {
    e.preventDefault();
    if (!listTitle.trim()) return setListError("List title is required");
    try {
      if (listDialog === "new") await unwrap(api["link-lists"].$post({ json: { title: listTitle } }));
      else if (listDialog) {
        const list = listDialog;
        await versionedWrite(`list:${list.id}`, list.revision, (revision) => unwrap(api["link-lists"][":id"].$patch({ param: { id: list.id }, json: { title: listTitle, revision } })), (a) => a.list.revision);
      }
      setListDialog(null);
      changed();
    } catch (err) {
      if (listStale.report(err)) return;
      setListError(err instanceof ApiFailure ? err.message : "Something went wrong. Please try again later.");
    }
  }

  async function doDeleteList() {
    if (!deletingList) return;
    const list = deletingList;
    try {
      await versionedWrite(`list:${list.id}`, list.revision, (revision) => unwrap(api["link-lists"][":id"].$delete({ param: { id: list.id }, query: { revision: String(revision) } })), () => undefined);
      rowFocus.removed();
      setDeletingList(null);
      changed();
    } catch (err) {
      setDeletingList(null);
      if (!stale.report(err)) toast.error("Something went wrong. Please try again later.");
    }
  }

  // Shown now: switched on and inside its schedule (not before its start, not after its end).
  const now = new Date();
  const visible = links.filter((l) => isLive(l, now)).length;
  const scheduled = links.filter((l) => l.scheduleStartTime || l.scheduleEndTime);
  const lite = isLite(me);
  const atLimit = lite && links.length >= LIMITS.LITE_MAX_LINKS;

  const addButton = (
    <Button ref={addRef} onClick={() => (atLimit ? useDashboard.getState().openUpgrade("unlimited_links") : setEditing("new"))}>
      <Plus aria-hidden className="size-4" /> Add Component
    </Button>
  );

  return (
    <section aria-labelledby="screen-title">
      {stale.alert}
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <ScreenHeader path="/dashboard/links" />
          <p className="mt-1 max-w-prose text-slate-600" data-testid="layout-summary">
            <span>{DASH.layoutVisible(visible, links.length, lite ? "lite" : me?.plan.isPayingPlus ? "plus" : "trial")}</span>
            {lite ? (
              <>
                {" "}
                {linksBlocked ? <PlusMark feature="unlimited_links" /> : <PlusBadge feature="unlimited_links" />}
              </>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={me?.pageAddress ?? "/"} target="_blank" rel="noopener" className="inline-flex min-h-10 items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50">
            <ExternalLink aria-hidden className="size-4" /> View Public Page
          </a>
          <Button variant="secondary" onClick={() => openListDialog("new")}>
            <FolderPlus aria-hidden className="size-4" /> New List
          </Button>
          {addButton}
        </div>
      </div>

      <Tabs.Root defaultValue="all">
        <Tabs.List className="mb-4 flex gap-1 border-b border-slate-200" aria-label="Components">
          <Tabs.Trigger value="all" className="border-b-2 border-transparent px-3 py-2 text-sm font-medium data-[state=active]:border-brand-600 data-[state=active]:text-brand-700">
            All Components
          </Tabs.Trigger>
          <Tabs.Trigger value="scheduled" className="border-b-2 border-transparent px-3 py-2 text-sm font-medium data-[state=active]:border-brand-600 data-[state=active]:text-brand-700">
            Scheduled
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="all">
          {links.length === 0 && lists.length === 0 ? (
            <EmptyState
              icon={Link2}
              title="No links yet"
              text="Start by adding your first link to share with your audience"
              action={
                <Button onClick={() => setEditing("new")}>
                  <Plus aria-hidden className="size-4" /> Add Your First Link
                </Button>
              }
            />
          ) : (
            <SortableList
              onMove={onMove}
              announcements={announcements}
              instructions="To reorder, press space to lift the link, use the arrow keys to move it, press space again to drop it, or press escape to cancel."
            >
              {groups.map((g, gi) => (
                <div key={g.list?.id ?? "ungrouped"} className={g.list ? "mt-4 rounded-lg border border-slate-200 bg-slate-50 p-3" : ""} role="group" aria-label={g.list ? `List ${g.list.title}` : "Links"}>
                  {g.list ? (
                    <div className="mb-2 flex flex-wrap items-center gap-2">
                      <h2 className="font-semibold">{g.list.title}</h2>
                      <span className="text-xs text-slate-600">{g.links.length} links</span>
                      <div className="ml-auto flex gap-1">
                        <Button variant="ghost" aria-label={`Move list ${g.list.title} up`} onClick={() => moveList(gi - 1, -1)} disabled={gi === 1}>
                          <ArrowUp aria-hidden className="size-4" />
                        </Button>
                        <Button variant="ghost" aria-label={`Move list ${g.list.title} down`} onClick={() => moveList(gi - 1, 1)} disabled={gi === groups.length - 1}>
                          <ArrowDown aria-hidden className="size-4" />
                        </Button>
                        <Button variant="ghost" onClick={() => openListDialog(g.list!)}>
                          Rename
                        </Button>
                        <Button variant="ghost" onClick={() => setDeletingList(g.list)}>
                          Delete list
                        </Button>
                      </div>
                    </div>
                  ) : null}
                  <SortableGroup ids={g.links.map((l) => l.id)}>
                    <ul className="space-y-2">
                      {g.links.map((l) => (
                        <SortableItem key={l.id} id={l.id}>
                          {(sort) => <LinkRow link={l} lists={lists} sort={sort} onEdit={() => setEditing(l)} onDelete={() => setDeleting(l)} onChanged={changed} onStale={stale.report} />}
                        </SortableItem>
                      ))}
                    </ul>
                  </SortableGroup>
                  {g.list && g.links.length === 0 ? <p className="text-sm text-slate-600">No links in this list yet. Use a link's menu to move it here.</p> : null}
                </div>
              ))}
            </SortableList>
          )}
        </Tabs.Content>
        <Tabs.Content value="scheduled">
          {scheduled.length === 0 ? (
            <EmptyState
              icon={CalendarClock}
              title="No scheduled components"
              text="No scheduled components found. Add scheduling to your components to see them here."
              action={
                <Button variant="secondary" onClick={() => (atLimit ? useDashboard.getState().openUpgrade("unlimited_links") : setEditing("new"))}>
                  <Plus aria-hidden className="size-4" /> Add Component
                </Button>
              }
            />
          ) : (
            <ul className="space-y-2">
              {scheduled.map((l) => (
                <LinkRow key={l.id} link={l} lists={lists} onEdit={() => setEditing(l)} onDelete={() => setDeleting(l)} onChanged={changed} onStale={stale.report} />
              ))}
            </ul>
          )}
        </Tabs.Content>
      </Tabs.Root>

      {editing !== null && LinkDialog ? (
        <LinkDialog key={editing === "new" ? "new" : editing.id} open onOpenChange={(o) => !o && setEditing(null)} link={editing === "new" ? null : editing} lists={lists} onSaved={changed} onReload={latest} />
      ) : null}
      <Confirm
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete Link"
        description={`Are you sure you want to delete ${deleting?.title ?? ""}? This action cannot be undone.`}
        confirm="Delete"
        danger
        onConfirm={doDelete}
        focusOnClose={rowFocus.onClose}
      />
      <Confirm
        open={deletingList !== null}
        onOpenChange={(o) => !o && setDeletingList(null)}
        title="Delete List"
        description={`Are you sure you want to delete the list ${deletingList?.title ?? ""}? Its links stay on your page.`}
        confirm="Delete"
        danger
        onConfirm={doDeleteList}
        focusOnClose={rowFocus.onClose}
      />
      <Modal
        open={listDialog !== null}
        onOpenChange={(o) => !o && setListDialog(null)}
        dirty={listDialog !== null && listTitle !== (listDialog === "new" ? "" : listDialog.title)}
        title={listDialog === "new" ? "New List" : "Rename List"}>
        <form onSubmit={saveList} noValidate>
          {listStale.alert}
          <label htmlFor="list-title" className="mb-1 block text-sm font-medium">
            List title
          </label>
          <input id="list-title" value={listTitle} onChange={(e) => setListTitle(e.target.value)} className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm" aria-invalid={listError ? true : undefined} />
          {listError ? <p className="mt-1 text-sm text-red-700">{listError}</p> : null}
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setListDialog(null)}>
              Cancel
            </Button>
            <Button type="submit">Save</Button>
          </div>
        </form>
      </Modal>
    </section>
  );
}
