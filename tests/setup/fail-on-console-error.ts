// A test that makes the code under test log an error fails: errors are part of the interface, and a
// logged one is a bug we would otherwise not see (a habit taken from the Epic Stack).
import { afterEach, beforeEach, vi } from "vitest";

let spy: ReturnType<typeof vi.spyOn> | undefined;

beforeEach(() => {
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(" ")}`);
  });
});

afterEach(() => {
  spy?.mockRestore();
});
