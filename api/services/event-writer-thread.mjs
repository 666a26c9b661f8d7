// The analytics writer thread's entry: its code is TypeScript, loaded through tsx like the rest.
import { register } from "tsx/esm/api";

register();
await import("./event-writer-thread.ts");
