// A test that makes the code under test log an error fails: errors are part of the interface, and a
// logged one is a bug we would otherwise not see (a habit taken from the Epic Stack).
import { afterEach, beforeEach, vi } from "vitest";
import { configureLogger } from "#api/log.ts";

// The server's logger (api/log.ts) writes JSON lines; in these tests each line goes to the console
// method of its level, message first, so an error line fails the test as console.error does, and a
// test that listens to console.warn or console.log reads the lines it expects. Info lines nobody
// listens to are dropped (every job and mail writes one).
const plainLog = console.log;
configureLogger({
  level: "info",
  destination: {
    write(line: string) {
      const entry = JSON.parse(line) as { level: string; msg?: string };
      const args = [entry.msg ?? "", line.trimEnd()];
      if (entry.level === "error" || entry.level === "fatal") console.error(...args);
      else if (entry.level === "warn") console.warn(...args);
      else if (console.log !== plainLog) console.log(...args);
    },
  },
});

let spy: ReturnType<typeof vi.spyOn> | undefined;

beforeEach(() => {
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(" ")}`);
  });
});

afterEach(() => {
  spy?.mockRestore();
});
