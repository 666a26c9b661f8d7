import { describe, expect, it } from "vitest";
import { otpKey, otpPasted, otpTyped } from "#editor/components/auth/field-rules.ts";

describe("one-time-code boxes", () => {
  it("takes digits only: a digit moves on, a letter changes nothing", () => {
    expect(otpTyped("", 6, 0, "4")).toEqual({ code: "4", focus: 1 });
    expect(otpTyped("4", 6, 1, "x")).toBeNull();
    expect(otpTyped("4", 6, 1, "<script>")).toBeNull();
  });

  it("replaces a box's digit, also when the new one is typed beside the old", () => {
    expect(otpTyped("123", 6, 1, "7")).toEqual({ code: "173", focus: 2 });
    expect(otpTyped("123", 6, 1, "27")).toEqual({ code: "173", focus: 2 });
    expect(otpTyped("123", 6, 1, "72")).toEqual({ code: "173", focus: 2 });
  });

  it("fills from the box on when several digits arrive at once (autofill), and stops at six", () => {
    expect(otpTyped("1", 6, 1, "234567")).toEqual({ code: "123456", focus: 5 });
  });

  it("clears a box emptied by the browser and keeps the focus there", () => {
    expect(otpTyped("123", 6, 1, "")).toEqual({ code: "13", focus: 1 });
  });

  it("Backspace clears this box's digit, else the one before and moves there; the arrows move", () => {
    expect(otpKey("123", 6, 1, "Backspace")).toEqual({ step: { code: "13", focus: 1 } });
    expect(otpKey("12", 6, 2, "Backspace")).toEqual({ step: { code: "1", focus: 1 } });
    expect(otpKey("", 6, 0, "Backspace")).toEqual({ step: null });
    expect(otpKey("12", 6, 1, "ArrowLeft")).toEqual({ move: 0 });
    expect(otpKey("12", 6, 0, "ArrowLeft")).toBeNull();
    expect(otpKey("12", 6, 5, "ArrowRight")).toBeNull();
    expect(otpKey("12", 6, 1, "Tab")).toBeNull();
  });

  it("a paste with digits fills every box; a paste without any is an ordinary paste", () => {
    expect(otpPasted(" 123 456 ", 6)).toEqual({ code: "123456", focus: 5 });
    expect(otpPasted("12-34", 6)).toEqual({ code: "1234", focus: 4 });
    expect(otpPasted("hello", 6)).toBeNull();
  });
});
