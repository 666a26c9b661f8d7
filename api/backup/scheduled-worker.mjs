// The scheduled backup's thread entry: its code is TypeScript, loaded through tsx like the rest.
import { register } from "tsx/esm/api";

register();
await import("./scheduled-worker.ts");
