/**
 * Link lists: named groups of links on the page (docs/product.md section 3). Links move in and out of a list
 * through PUT /api/links/order (or a link's parentListId); deleting a list keeps its links, ungrouped.
 */
import { and, eq, max } from "drizzle-orm";
import { Hono } from "hono";
import { IdParamSchema, LinkListInputSchema } from "#core/dashboard-schemas.ts";
import { RevisionQuerySchema, withRevision } from "#core/schemas/revision.ts";
import { transaction } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { stampSection, takeRevision } from "#db/revisions.ts";
import { linkLists, links } from "#db/schema.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { linksOrderRevision, listLists, ownedList } from "../services/links.ts";
import { touchProfile } from "../services/profile.ts";
import { expectChanged, expectRevision } from "../services/revisions.ts";
import { jsonBody, params, query } from "../validate.ts";

/** Our choice: enough lists for any page, few enough to keep a page readable. */
const MAX_LISTS = 50;

export function linkListRoutes({ db, now }: AppDeps) {
  return (
    new Hono<AppEnv>()
      .use(requireUser)
      // GET /api/link-lists - the owner's lists in page order
      .get("/", (c) => c.json({ lists: listLists(db, currentUser(c).id) }))
      // POST /api/link-lists - create a list
      .post("/", jsonBody(LinkListInputSchema), (c) => {
        const user = currentUser(c);
        const { title } = c.req.valid("json");
        const at = now();
        const list = transaction(db, (tx) => {
          const existing = listLists(tx, user.id);
          if (existing.length >= MAX_LISTS) throw new ApiError("validation_failed", `You can have at most ${MAX_LISTS} lists`);
          const top = tx.select({ top: max(linkLists.orderIndex) }).from(linkLists).where(eq(linkLists.userId, user.id)).get();
          const id = newId();
          const revision = takeRevision(tx, user.id);
          tx.insert(linkLists).values({ id, userId: user.id, title, orderIndex: (top?.top ?? -1) + 1, revision, createdAt: at, updatedAt: at }).run();
          stampSection(tx, user.id, "linksOrder", revision);
          touchProfile(tx, user.id, at);
          return ownedList(tx, user.id, id);
        });
        return c.json({ list, orderRevision: linksOrderRevision(db, user.id) }, 201);
      })
      // PATCH /api/link-lists/:id - rename a list, based on its revision
      .patch("/:id", params(IdParamSchema), jsonBody(withRevision(LinkListInputSchema)), (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        const { title, revision: base } = c.req.valid("json");
        const at = now();
        const list = transaction(db, (tx) => {
          expectRevision(ownedList(tx, user.id, id), base);
          const revision = takeRevision(tx, user.id);
          expectChanged(
            tx.update(linkLists).set({ title, updatedAt: at, revision }).where(and(eq(linkLists.id, id), eq(linkLists.userId, user.id), eq(linkLists.revision, base))).run(),
          );
          touchProfile(tx, user.id, at);
          return ownedList(tx, user.id, id);
        });
        return c.json({ list });
      })
      // DELETE /api/link-lists/:id?revision= - delete a list, based on its revision; its links stay on
      // the page, ungrouped (a change of each of them)
      .delete("/:id", params(IdParamSchema), query(RevisionQuerySchema), (c) => {
        const user = currentUser(c);
        const { id } = c.req.valid("param");
        const { revision: base } = c.req.valid("query");
        const at = now();
        transaction(db, (tx) => {
          expectRevision(ownedList(tx, user.id, id), base);
          const revision = takeRevision(tx, user.id);
          tx.update(links).set({ parentListId: null, updatedAt: at, revision }).where(and(eq(links.parentListId, id), eq(links.userId, user.id))).run();
          expectChanged(tx.delete(linkLists).where(and(eq(linkLists.id, id), eq(linkLists.userId, user.id), eq(linkLists.revision, base))).run());
          stampSection(tx, user.id, "linksOrder", revision);
          touchProfile(tx, user.id, at);
        });
        return c.json({ ok: true, orderRevision: linksOrderRevision(db, user.id) });
      })
  );
}
