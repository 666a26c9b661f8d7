/**
 * The link dialog's Tip and Paid download fields (ADR 235): amounts typed in units go to the API in
 * the smallest unit, what is not an amount stays in its field with the message, and a saved link's
 * amounts read back as the owner wrote them.
 */
import { describe, expect, it } from "vitest";
import { LinkInputSchema } from "#core/link-input.ts";
import { PAYMENT_MESSAGES, PAYMENTS } from "#core/payments.ts";
import { amountText, paymentBody, paymentFieldsOf } from "#editor/app/screens/links/PaymentFields.tsx";

describe("Tip fields", () => {
  it("send the suggested amounts and the owner's range in the smallest unit, skipping empty fields", () => {
    const { data, errors } = paymentBody("tip", { currency: "eur", amount1: "3", amount2: "", amount3: "4.50", custom: "on", min: "2", max: "€50", message: "Thanks" });
    expect(errors).toEqual({});
    expect(data).toEqual({ currency: "eur", amounts: "300,450", custom: "on", min: "200", max: "5000", message: "Thanks" });
    const parsed = LinkInputSchema.parse({ linkType: "tip", title: "Coffee", data });
    expect(parsed.data).toMatchObject({ amounts: "300,450", min: "200", max: "5000", currency: "eur" });
  });

  it("keep what is not an amount in its field with the message, and send no range without 'choose an amount'", () => {
    const { data, errors } = paymentBody("tip", { currency: "usd", amount1: "five", amount2: "-3", amount3: "1.234", custom: "off", min: "2", max: "x" });
    expect(errors).toEqual({ amount1: PAYMENT_MESSAGES.amountInvalid, amount2: PAYMENT_MESSAGES.amountInvalid, amount3: PAYMENT_MESSAGES.amountInvalid });
    expect(data).toEqual({ currency: "usd", amounts: "", custom: "off", message: "" });
  });

  it("read a saved link back in units, the default range as empty", () => {
    const f = paymentFieldsOf({ currency: "gbp", amounts: "300,450,1000", custom: "on", min: String(PAYMENTS.MIN_AMOUNT), max: "2500" });
    expect(f).toMatchObject({ currency: "gbp", amount1: "3", amount2: "4.50", amount3: "10", custom: "on", min: "", max: "25" });
    expect(paymentBody("tip", { ...f, message: "" }).data).toMatchObject({ amounts: "300,450,1000", max: "2500" });
    expect(amountText("<script>")).toBe("");
  });
});

describe("Paid download fields", () => {
  it("send the price in the smallest unit with the file's id, or say the price is missing or not an amount", () => {
    const ok = paymentBody("paid_download", { currency: "usd", price: "9.99", description: "Guide", cover: "", file: "abcdefgh1234", message: "" });
    expect(ok).toEqual({ data: { currency: "usd", price: "999", description: "Guide", cover: "", file: "abcdefgh1234", message: "" }, errors: {} });
    expect(paymentBody("paid_download", { currency: "usd", price: "" }).errors).toEqual({ "data.price": PAYMENT_MESSAGES.priceRequired });
    expect(paymentBody("paid_download", { currency: "usd", price: "9,999.00" }).errors).toEqual({ "data.price": PAYMENT_MESSAGES.amountInvalid });
  });
});
