/**
 * Files an owner uploads from the link dialog: a lead magnet's download (issue: "upload a file or
 * give a URL") and a link's thumbnail. docs/product.md gives the picture rules only; these follow them in
 * form (title plus description) and are recorded in ADR 067.
 */
import { z } from "zod";
import { LINK_FILE_KINDS } from "../link-files.ts";

export * from "../link-files.ts";

export const LinkFileFieldsSchema = z.object({ kind: z.enum(LINK_FILE_KINDS, "Please choose what the file is for") });
