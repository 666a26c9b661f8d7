/**
 * npm run admin -- grant <email> | revoke <email>: make an account an admin of the operator's console,
 * or take that back (ADR 105). The only way to grant the role; each use is recorded in the audit log
 * with the shell user who ran it. Reads DATA_DIR as the server does.
 */
import { userInfo, hostname } from "node:os";
import { parseEnv } from "#api/env.server.ts";
import { setAdminRole } from "#api/services/admin-role.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { OperatorError, runOperatorCommand } from "./lib/operator.ts";

const USAGE = "Usage: npm run admin -- grant <email> | revoke <email>";

await runOperatorCommand(async () => {
  const [verb, email, ...rest] = process.argv.slice(2);
  if ((verb !== "grant" && verb !== "revoke") || !email || rest.length > 0) throw new OperatorError(USAGE);
  const env = parseEnv();
  const db = openDatabase({ path: env.DATABASE_PATH });
  try {
    const actor = `shell (${userInfo().username}@${hostname()})`;
    const result = setAdminRole(db, { email, admin: verb === "grant", actor, now: new Date() });
    if (result.outcome === "unknown") throw new OperatorError(`No account has the e-mail address ${email.trim().toLowerCase()}. Nothing changed.`);
    if (result.outcome === "unchanged") console.log(`${result.email} is already ${verb === "grant" ? "an admin" : "not an admin"}. Nothing changed.`);
    else if (verb === "grant")
      console.log(`${result.email} is now an admin. They open the console at /admin after turning on two-factor authentication; an admin sign-in lasts 12 hours.`);
    else console.log(`${result.email} is no longer an admin.`);
  } finally {
    closeDatabase(db);
  }
});
