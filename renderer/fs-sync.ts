/**
 * syncfs(2) for Node, which has no binding for it: make everything written to one file system
 * durable in one call, instead of one fsync per file. Bulk republish commits a batch of a hundred
 * pages with two of these (ADR 029): per-file fsyncs cost the kernel more CPU on these machines
 * than rendering the page does.
 *
 * Each thread keeps one small shell alive that runs coreutils' `sync --file-system PATH` for every
 * line it reads and answers 0 or 1, so no call forks this (large) process. Requests are answered in
 * order. Where the command is missing or cannot sync one file system (not Linux, old coreutils),
 * `fileSystemSync()` answers null and callers fsync each file instead.
 */
import { spawn, spawnSync, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";

export type SyncFileSystem = (path: string) => Promise<void>;

const LOOP = 'while IFS= read -r p; do if sync --file-system -- "$p"; then echo 0; else echo 1; fi; done';

let available: boolean | undefined;
let helper: { proc: ChildProcessByStdio<Writable, Readable, null>; waiting: ((ok: boolean) => void)[] } | undefined;

function supported(): boolean {
  if (available === undefined) {
    // Asked once per thread: the probe syncs nothing but the temporary folder's file system.
    available =
      process.platform === "linux" && process.env.PLINTH_NO_SYNCFS !== "1" && spawnSync("sync", ["--file-system", "--", "/tmp"], { stdio: "ignore" }).status === 0;
  }
  return available;
}

function start(): NonNullable<typeof helper> {
  const proc = spawn("sh", ["-c", LOOP], { stdio: ["pipe", "pipe", "ignore"] });
  const h = { proc, waiting: [] as ((ok: boolean) => void)[] };
  let buf = "";
  const failAll = () => {
    if (helper === h) helper = undefined;
    for (const w of h.waiting.splice(0)) w(false);
  };
  proc.stdout.setEncoding("utf8");
  proc.stdout.on("data", (d: string) => {
    buf += d;
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      h.waiting.shift()?.(line === "0");
    }
    if (h.waiting.length === 0) setBusy(h, false);
  });
  proc.on("error", failAll);
  proc.on("exit", failAll);
  proc.stdin.on("error", failAll);
  setBusy(h, false);
  return h;
}

type Refable = { ref(): void; unref(): void };
/**
 * While an answer is awaited the shell keeps this process alive; idle, it never does, and it ends
 * when our end of its input closes.
 */
function setBusy(h: NonNullable<typeof helper>, busy: boolean): void {
  for (const r of [h.proc, h.proc.stdout, h.proc.stdin] as unknown as Refable[]) {
    if (busy) r.ref();
    else r.unref();
  }
}

/** One file system's pending writes, data and metadata, durable when the promise resolves. */
function syncFileSystem(path: string): Promise<void> {
  if (/[\n\r]/.test(path)) return Promise.reject(new Error(`cannot sync a path with a line break: ${JSON.stringify(path)}`));
  helper ??= start();
  const h = helper;
  return new Promise<void>((resolve, reject) => {
    if (h.waiting.length === 0) setBusy(h, true);
    h.waiting.push((ok) => (ok ? resolve() : reject(new Error(`sync --file-system failed for ${path}`))));
    h.proc.stdin.write(`${path}\n`);
  });
}

/** syncfs for this platform, or null where there is none (callers fsync each file). */
export function fileSystemSync(): SyncFileSystem | null {
  return supported() ? syncFileSystem : null;
}
