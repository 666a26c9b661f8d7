/**
 * Connect events (ADR 230) as the product reads them: the same envelope as billing's (id, created,
 * type, data.object) plus the `account` the event happened on, parsed field by field before anything
 * is written. Stripe's own events are mapped to these shapes (stripe/connect-map.ts).
 */
import { z } from "zod";
import type { ConnectAccountObject } from "./provider.ts";

const id = z.string().min(1).max(100);
const ms = z.number().int().nonnegative();

const ConnectAccountObjectSchema = z.object({
  object: z.literal("account"),
  id,
  details_submitted: z.boolean(),
  charges_enabled: z.boolean(),
  payouts_enabled: z.boolean(),
  details_needed: z.boolean(),
}) satisfies z.ZodType<ConnectAccountObject>;

const base = { id, created: ms, account: id };

export const ConnectEventSchema = z.discriminatedUnion("type", [
  z.object({ ...base, type: z.literal("account.updated"), data: z.object({ object: ConnectAccountObjectSchema }) }),
]);

export type ConnectEvent = z.infer<typeof ConnectEventSchema>;
