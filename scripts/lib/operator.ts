/**
 * What the operator commands (backup, restore) share: a failure the operator can act on is printed
 * as its message alone and ends the command with status 1; anything else is a bug and keeps its
 * stack trace. A wrong configuration is named one variable a line, as the server names it.
 */
import { bootErrorLines } from "#api/boot-errors.ts";
import { OperatorError } from "#api/backup/operator-error.ts";
import { ConfigError } from "#api/env.server.ts";

export { OperatorError };

export async function runOperatorCommand(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of bootErrorLines(err)) console.error(line);
      process.exitCode = 1;
      return;
    }
    if (!(err instanceof OperatorError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  }
}
