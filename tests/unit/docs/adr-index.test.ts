/**
 * docs/decisions/ kept honest (docs/decisions/README.md): every ADR starts with its Status and Date
 * lines, the README's index lists every ADR once with its file's title and status, and a
 * "supersedes" or "amends" written in one ADR is named in the other's Status.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const DIR = resolve(import.meta.dirname, "../../../docs/decisions");
const FILE = /^(\d{3})-[a-z0-9-]+\.md$/;
const TITLE = /^# (\d{3})[.:] (.+)$/;
const STATUS = /^(?:accepted|amended by (\d{3}(?:, \d{3})*)|superseded by (\d{3})(?:; amended by (\d{3}(?:, \d{3})*))?)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INDEX_ROW = /^\| (\d{3}) \| \[(.+)\]\(([^)]+)\) \| (.+) \|$/;
/** "Supersedes ADRs 025, 027 and 090", "supersedes ADR 057": the numbers it names. */
const SUPERSEDES = /\bsupersedes ADRs? ((?:\d{3}(?:,? and |, )?)+)/gi;
/** "Amends ADR 054", "(amends 118, 123, 131)", "Amends ADR 088's conclusion". */
const AMENDS = /\bamends (?:ADRs? )?((?:\d{3}(?:,? and |, )?)+)/gi;

interface Adr {
  num: string;
  file: string;
  text: string;
  title: string | null;
  status: string | null;
  date: string | null;
}

const numbers = (list: string | undefined): string[] => [...(list?.match(/\d{3}/g) ?? [])];

/** The first two lines that are not blank under the title: Status, then Date. */
function readAdr(file: string): Adr {
  const num = FILE.exec(file)![1]!;
  const text = readFileSync(join(DIR, file), "utf8");
  const lines = text.split("\n");
  const title = TITLE.exec(lines[0] ?? "");
  const [first, second] = lines.slice(1).filter((l) => l.trim() !== "");
  return {
    num,
    file,
    text,
    title: title && title[1] === num ? title[2]! : null,
    status: first?.startsWith("Status: ") ? first.slice("Status: ".length) : null,
    date: second?.startsWith("Date: ") ? second.slice("Date: ".length) : null,
  };
}

function isDay(date: string): boolean {
  if (!DATE.test(date)) return false;
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date;
}

/** What a status says: the ADR that superseded this one, and those that amended it. */
function parseStatus(status: string): { supersededBy: string | null; amendedBy: string[] } | null {
  const m = STATUS.exec(status);
  if (!m) return null;
  return { supersededBy: m[2] ?? null, amendedBy: numbers(m[1] ?? m[3]) };
}

const ADRS = readdirSync(DIR)
  .filter((f) => FILE.test(f))
  .sort()
  .map(readAdr);
const BY_NUM = new Map(ADRS.map((a) => [a.num, a]));

describe("docs/decisions", () => {
  it("has ADRs, each number once", () => {
    expect(ADRS.length).toBeGreaterThan(0);
    expect(new Set(ADRS.map((a) => a.num)).size).toBe(ADRS.length);
  });

  it("starts every ADR with its title, then a Status line and a Date line", () => {
    const problems: string[] = [];
    for (const a of ADRS) {
      if (a.title === null) problems.push(`${a.file}: the first line is not "# ${a.num}. Title" or "# ${a.num}: Title"`);
      if (a.status === null) problems.push(`${a.file}: no "Status:" line under the title`);
      else if (!parseStatus(a.status)) problems.push(`${a.file}: "Status: ${a.status}" is not accepted, amended by NNN[, NNN], superseded by NNN[; amended by NNN[, NNN]]`);
      if (a.date === null) problems.push(`${a.file}: no "Date:" line under the Status line`);
      else if (!isDay(a.date)) problems.push(`${a.file}: "Date: ${a.date}" is not a day written YYYY-MM-DD`);
    }
    expect(problems).toEqual([]);
  });

  it("names in a status only later ADRs that exist, in order", () => {
    const problems: string[] = [];
    for (const a of ADRS) {
      const s = a.status === null ? null : parseStatus(a.status);
      if (!s) continue;
      const named = [...(s.supersededBy ? [s.supersededBy] : []), ...s.amendedBy];
      for (const n of named) {
        if (!BY_NUM.has(n)) problems.push(`${a.file}: its status names ADR ${n}, which has no file`);
        else if (n <= a.num) problems.push(`${a.file}: its status names ADR ${n}, which is not later`);
      }
      if (s.amendedBy.join() !== [...new Set(s.amendedBy)].sort().join()) problems.push(`${a.file}: "amended by" should list each ADR once, in order`);
    }
    expect(problems).toEqual([]);
  });

  it("writes a supersession on both sides", () => {
    const problems: string[] = [];
    for (const a of ADRS) {
      for (const m of a.text.matchAll(SUPERSEDES)) {
        for (const n of numbers(m[1])) {
          const old = BY_NUM.get(n);
          const s = old?.status ? parseStatus(old.status) : null;
          if (s?.supersededBy !== a.num) problems.push(`${a.file} supersedes ADR ${n}, whose status is "${old?.status ?? "missing"}"`);
        }
      }
      const s = a.status ? parseStatus(a.status) : null;
      if (s?.supersededBy) {
        const by = BY_NUM.get(s.supersededBy);
        const says = by ? [...by.text.matchAll(SUPERSEDES)].some((m) => numbers(m[1]).includes(a.num)) : false;
        if (!says) problems.push(`${a.file} is superseded by ${s.supersededBy}, which does not say "Supersedes ADR ${a.num}"`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("names in an ADR's status every later ADR that says it amends it", () => {
    const problems: string[] = [];
    for (const a of ADRS) {
      for (const m of a.text.matchAll(AMENDS)) {
        for (const n of numbers(m[1])) {
          const old = BY_NUM.get(n);
          const s = old?.status ? parseStatus(old.status) : null;
          if (!s?.amendedBy.includes(a.num)) problems.push(`${a.file} amends ADR ${n}, whose status is "${old?.status ?? "missing"}"`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("lists every ADR in the README once, with its file's title and status", () => {
    const readme = join(DIR, "README.md");
    expect(existsSync(readme)).toBe(true);
    const rows = readFileSync(readme, "utf8")
      .split("\n")
      .filter((l) => /^\| \d/.test(l));
    const listed = rows.map((row) => {
      const m = INDEX_ROW.exec(row);
      return m ? { num: m[1]!, title: m[2]!, file: m[3]!, status: m[4]! } : { num: "?", title: "?", file: "?", status: `unreadable row: ${row}` };
    });
    const expected = ADRS.map((a) => ({ num: a.num, title: a.title ?? "?", file: a.file, status: a.status ?? "?" }));
    expect(listed).toEqual(expected);
  });
});
