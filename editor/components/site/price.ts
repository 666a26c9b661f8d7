/**
 * Money as the marketing pages print it. Prices are in US dollars (ADR 052); the Plus price is the
 * one docs/product.md section 10 fixes, 8.99 per month everywhere.
 */
import { LIMITS } from "#core/limits.ts";

/** $8.99, and whole amounts without cents: $20. */
export function formatDollars(cents: number): string {
  return `$${cents % 100 === 0 ? cents / 100 : (cents / 100).toFixed(2)}`;
}

export function formatPlusPrice(): string {
  return formatDollars(LIMITS.PLUS_PRICE_CENTS);
}
