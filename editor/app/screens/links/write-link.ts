/** A write of one link, based on `link.revision`, after this tab's earlier writes of it (ADR 069). */
import { versionedWrite } from "../../revisions.ts";
import type { Link } from "./types.ts";

export const writeLink = <T extends { link: Link }>(link: Link, send: (revision: number) => Promise<T>) => versionedWrite(`link:${link.id}`, link.revision, send, (a) => a.link.revision);
