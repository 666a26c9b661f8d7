// The republish worker thread's entry: its code is TypeScript, loaded through tsx like the rest.
import { register } from "tsx/esm/api";

register();
await import("./republish-worker.ts");
