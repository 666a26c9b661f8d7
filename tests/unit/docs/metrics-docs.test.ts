/**
 * The alert rules (docs/prometheus-alerts.yml) and the metrics table of docs/operations.md name only
 * metrics the server exports, and the table lists every one of Plinth's own (ADR 191, 193).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registry } from "#api/metrics.ts";

const ROOT = join(import.meta.dirname, "../../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const exported = new Set(registry.getMetricsAsArray().map((m) => m.name));
const own = [...exported].filter((n) => n.startsWith("plinth_")).sort();
/** A histogram's series (_bucket, _count, _sum) belong to its metric. */
const metricOf = (series: string) => series.replace(/_(bucket|count|sum)$/, "");

describe("the metrics the documents name", () => {
  it("the alert rules use only exported metrics, and every rule has a severity and a summary", () => {
    const rules = read("docs/prometheus-alerts.yml");
    const named = [...new Set(rules.match(/\bplinth_[a-z_]+/g) ?? [])].map(metricOf);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((n) => !exported.has(n))).toEqual([]);
    const alerts = rules.split("- alert: ").slice(1);
    expect(alerts.length).toBeGreaterThanOrEqual(8);
    for (const alert of alerts) {
      expect(alert, alert.split("\n")[0]).toMatch(/\n\s+expr: /);
      expect(alert, alert.split("\n")[0]).toMatch(/severity: (page|ticket)/);
      expect(alert, alert.split("\n")[0]).toMatch(/summary: "/);
    }
    for (const name of ["PlinthNotReady", "PlinthHigh5xxRate", "PlinthJobQueueStuck", "PlinthMailFailing", "PlinthBackupOld"]) expect(rules).toContain(`- alert: ${name}\n`);
  });

  it("docs/operations.md lists every metric of Plinth's own, and only those", () => {
    const doc = read("docs/operations.md");
    const section = doc.slice(doc.indexOf("## Logs, metrics and alerts"));
    const listed = [...new Set(section.match(/`plinth_[a-z_]+`/g)?.map((s) => s.slice(1, -1)) ?? [])].sort();
    expect(listed).toEqual(own);
  });
});
