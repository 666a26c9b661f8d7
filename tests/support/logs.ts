/**
 * The server's JSON log lines (api/log.ts), read back from a process's output: one object per line
 * that is JSON; other lines (a boot error, a child's own output) are left out.
 */
export interface LogLine {
  level: string;
  time: string;
  msg: string;
  [field: string]: unknown;
}

export function logLines(output: string): LogLine[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}
