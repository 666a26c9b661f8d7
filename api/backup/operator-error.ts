/**
 * A failure an operator can act on (a backup, a restore, a verification): its message alone says
 * what is wrong and what to do, so the commands print it without a stack trace.
 */
export class OperatorError extends Error {}
