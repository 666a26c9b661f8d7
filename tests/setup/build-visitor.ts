import { buildVisitorScript } from "#scripts/build-visitor.ts";

export default async function setup(): Promise<void> {
  await buildVisitorScript();
}
