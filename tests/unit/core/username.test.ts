import { describe, expect, it } from "vitest";
import { UsernameSchema } from "#core/schemas/username.ts";
import { usernameFormatError } from "#core/username-format.ts";

describe("username (docs/product.md section 5)", () => {
  it.each([
    ["ab", "Username must be at least 3 characters"],
    ["a".repeat(31), "Username must be less than 30 characters"],
    ["bad name", "Username can only contain letters, numbers, hyphens, and underscores"],
    ["ünïcode", "Username can only contain letters, numbers, hyphens, and underscores"],
    ["<script>", "Username can only contain letters, numbers, hyphens, and underscores"],
  ])("%s gives %s", (name, message) => {
    expect(usernameFormatError(name)).toBe(message);
    expect(UsernameSchema.safeParse(name).error?.issues[0]?.message).toBe(message);
  });

  it("accepts 3 to 30 letters, digits, hyphens and underscores, trimmed", () => {
    expect(usernameFormatError("abc")).toBeNull();
    expect(usernameFormatError("a".repeat(30))).toBeNull();
    expect(UsernameSchema.parse("  Ada_Love-1 ")).toBe("Ada_Love-1");
  });
});
