/**
 * A progress bar for the operator's long commands (republish, publish-target:sync): redrawn in place
 * on a terminal; elsewhere (a log file, CI) a plain line at most every second, and the last one.
 */
import { SingleBar } from "cli-progress";

export function progressBar(what: string): { update(done: number, total: number): void; stop(): void } {
  if (!process.stdout.isTTY) {
    let lastLine = 0;
    return {
      update(done, total) {
        if (done !== total && Date.now() - lastLine < 1000) return;
        lastLine = Date.now();
        console.log(`${what} ${done}/${total}`);
      },
      stop: () => {},
    };
  }
  const bar = new SingleBar({ format: `${what} [{bar}] {value}/{total} ({percentage}%, {eta_formatted} left)`, hideCursor: true });
  let started = false;
  return {
    update(done, total) {
      if (!started) bar.start(total, done);
      else bar.update(done);
      started = true;
    },
    stop: () => started && bar.stop(),
  };
}
