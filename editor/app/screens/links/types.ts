import type { InferResponseType } from "hono/client";
import type { api } from "../../api.ts";

type LinksAnswer = Extract<InferResponseType<typeof api.links.$get>, { links: unknown }>;
export type Link = LinksAnswer["links"][number];
export type LinkList = LinksAnswer["lists"][number];
/** What the Page Layout screen shows: the links, the lists and the revision of their order (ADR 068). */
export interface LinksData {
  links: Link[];
  lists: LinkList[];
  orderRevision: number;
}
