/**
 * Invoice numbers, tax rates and totals (ADR 103): the gross is what was paid, the tax comes out of
 * it rounded half up to the cent, and net + tax = gross every time.
 */
import { describe, expect, it } from "vitest";
import { formatInvoiceNumber, formatTaxRate, invoiceTotals, parseTaxRatePercent } from "#core/invoice.ts";
import { LIMITS } from "#core/limits.ts";

describe("invoice numbers", () => {
  it("PLN- and six digits, growing past a million", () => {
    expect(formatInvoiceNumber(1)).toBe("PLN-000001");
    expect(formatInvoiceNumber(42)).toBe("PLN-000042");
    expect(formatInvoiceNumber(999_999)).toBe("PLN-999999");
    expect(formatInvoiceNumber(1_000_000)).toBe("PLN-1000000");
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => formatInvoiceNumber(bad)).toThrow(RangeError);
  });
});

describe("tax rates", () => {
  it("reads 0 to 100 with at most two decimals, as basis points", () => {
    expect(parseTaxRatePercent("0")).toBe(0);
    expect(parseTaxRatePercent("20")).toBe(2000);
    expect(parseTaxRatePercent("8.25")).toBe(825);
    expect(parseTaxRatePercent("7.5")).toBe(750);
    expect(parseTaxRatePercent("100")).toBe(10_000);
    for (const bad of ["", "-5", "100.01", "101", "20%", "8,25", "1.234", " 20", "1e2", "0x10", ".5", "5."]) expect(parseTaxRatePercent(bad)).toBeNull();
  });

  it("prints them back without trailing zeros", () => {
    expect([0, 2000, 825, 750, 5, 10_000].map(formatTaxRate)).toEqual(["0%", "20%", "8.25%", "7.5%", "0.05%", "100%"]);
  });
});

describe("net, tax and gross", () => {
  it("takes the tax out of the price paid: 8.99 at 20% is 7.49 + 1.50", () => {
    expect(invoiceTotals(LIMITS.PLUS_PRICE_CENTS, 2000)).toEqual({ netCents: 749, taxCents: 150, grossCents: 899, taxRateBp: 2000 });
    expect(invoiceTotals(899, 0)).toEqual({ netCents: 899, taxCents: 0, grossCents: 899, taxRateBp: 0 });
    expect(invoiceTotals(0, 2000)).toEqual({ netCents: 0, taxCents: 0, grossCents: 0, taxRateBp: 2000 });
  });

  it("rounds half a cent up, never a float's way", () => {
    // 105 at 5%: tax is exactly 5.000; 21 at 5%: 1.0 -> 1; 1 cent at 100%: 0.5 -> 1 (half up).
    expect(invoiceTotals(105, 500).taxCents).toBe(5);
    expect(invoiceTotals(1, 10_000).taxCents).toBe(1);
    expect(invoiceTotals(3, 10_000).taxCents).toBe(2);
    // 8.99 at 8.25%: 899 x 825 / 10825 = 68.51... -> 69.
    expect(invoiceTotals(899, 825)).toMatchObject({ taxCents: 69, netCents: 830 });
    // 17.98 at 19%: 1798 x 1900 / 11900 = 287.07... -> 287.
    expect(invoiceTotals(1798, 1900)).toMatchObject({ taxCents: 287, netCents: 1511 });
  });

  it("adds up to the cent for every amount and rate tried, and stays within half a cent of the exact tax", () => {
    const wrong: string[] = [];
    for (const rate of [0, 1, 500, 700, 825, 1900, 2000, 2100, 2500, 9999, 10_000]) {
      for (let gross = 0; gross <= 20_000; gross += 7) {
        const t = invoiceTotals(gross, rate);
        const exact = (gross * rate) / (10_000 + rate);
        const ok = t.netCents + t.taxCents === gross && Number.isInteger(t.taxCents) && t.taxCents >= 0 && t.netCents >= 0 && Math.abs(t.taxCents - exact) <= 0.5;
        if (!ok) wrong.push(`${gross}@${rate}: ${JSON.stringify(t)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("refuses amounts and rates that are not whole cents and basis points in range", () => {
    expect(() => invoiceTotals(-1, 2000)).toThrow(RangeError);
    expect(() => invoiceTotals(1.5, 2000)).toThrow(RangeError);
    expect(() => invoiceTotals(899, -1)).toThrow(RangeError);
    expect(() => invoiceTotals(899, 10_001)).toThrow(RangeError);
  });
});
