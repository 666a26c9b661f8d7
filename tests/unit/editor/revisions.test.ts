/**
 * The dashboard's side of ADR 069: one tab's writes of one thing go one at a time, a write that waited
 * behind the tab's own earlier write is based on its answer (never on another tab's change), and a
 * reloaded form takes the other tab's fields while keeping the owner's.
 */
import { describe, expect, it } from "vitest";
import { mergeLatest, versionedWrite } from "#editor/app/revisions.ts";

/** A thing on a fake server: a revision that every accepted write moves on, and 409 for a stale base. */
function server(start: number) {
  let revision = start;
  const sent: number[] = [];
  return {
    sent,
    bump: () => ++revision,
    write: async (base: number) => {
      sent.push(base);
      await new Promise((r) => setTimeout(r, 0));
      if (base !== revision) throw Object.assign(new Error("stale"), { status: 409 });
      revision += 1;
      return { revision };
    },
  };
}

describe("versionedWrite", () => {
  it("sends a tab's writes of one thing one after the other, the later one based on the earlier one's answer", async () => {
    const s = server(5);
    const both = await Promise.all([versionedWrite("t1", 5, s.write, (a) => a.revision), versionedWrite("t1", 5, s.write, (a) => a.revision)]);
    expect(both.map((a) => a.revision)).toEqual([6, 7]);
    expect(s.sent).toEqual([5, 6]);
    // A later action on the screen that still showed 5 is rebased over both of this tab's writes.
    expect((await versionedWrite("t1", 5, s.write, (a) => a.revision)).revision).toBe(8);
  });

  it("never rebases over another tab's change: that write is refused", async () => {
    const s = server(1);
    s.bump(); // another tab: 1 -> 2
    await expect(versionedWrite("t2", 1, s.write, (a) => a.revision)).rejects.toMatchObject({ status: 409 });
    // This tab's own write after a reload goes through, and a refused one does not block the queue.
    expect((await versionedWrite("t2", 2, s.write, (a) => a.revision)).revision).toBe(3);
  });

  it("keeps different things apart", async () => {
    const a = server(1);
    const b = server(1);
    await Promise.all([versionedWrite("a", 1, a.write, (x) => x.revision), versionedWrite("b", 1, b.write, (x) => x.revision)]);
    expect([a.sent, b.sent]).toEqual([[1], [1]]);
  });
});

describe("mergeLatest", () => {
  it("takes the fields the other tab changed and keeps the rest as the owner has them", () => {
    const base = { title: "Original", url: "https://a.example", text: "" };
    const mine = { title: "Mine", url: "https://b.example", text: "" };
    const latest = { title: "Theirs", url: "https://a.example", text: "New text" };
    expect(mergeLatest(mine, base, latest)).toEqual({ values: { title: "Theirs", url: "https://b.example", text: "New text" }, changed: ["title", "text"] });
    expect(mergeLatest(mine, base, base)).toEqual({ values: mine, changed: [] });
  });
});
