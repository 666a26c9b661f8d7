/**
 * The Plus price as the marketing pages print it (decisions.md: 8.99 per month everywhere). Prices
 * are in US dollars (ADR 052).
 */
import { LIMITS } from "#core/limits.ts";

export function formatPlusPrice(): string {
  return `$${(LIMITS.PLUS_PRICE_CENTS / 100).toFixed(2)}`;
}
