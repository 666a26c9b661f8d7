import type { InferResponseType } from "hono/client";
import type { api } from "../../api.ts";

type LinksAnswer = Extract<InferResponseType<typeof api.links.$get>, { links: unknown }>;
export type Link = LinksAnswer["links"][number];
export type LinkList = LinksAnswer["lists"][number];
