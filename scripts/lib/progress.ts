/**
 * A progress bar for the operator's long commands (republish, publish-target:sync): redrawn in place
 * on a terminal, a plain line every second otherwise (a log file, CI).
 */
import { SingleBar } from "cli-progress";

export function progressBar(what: string): { update(done: number, total: number): void; stop(): void } {
  const bar = new SingleBar({ format: `${what} [{bar}] {value}/{total} ({percentage}%, {eta_formatted} left)`, noTTYOutput: true, notTTYSchedule: 1000, hideCursor: true });
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, done);
        started = true;
      } else bar.update(done);
    },
    stop: () => started && bar.stop(),
  };
}
