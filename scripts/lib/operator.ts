/**
 * What the operator commands (backup, restore) share: a failure the operator can act on is printed
 * as its message alone and ends the command with status 1; anything else is a bug and keeps its
 * stack trace.
 */
export class OperatorError extends Error {}

export async function runOperatorCommand(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    if (!(err instanceof OperatorError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  }
}
