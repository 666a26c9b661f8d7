import { expect, it } from "vitest";
import { SIGNED_IN_HINT_SCRIPT } from "#core/signed-in-hint.ts";

/** Runs the site's inline head script against a document with these cookies; true when it marks the page signed in. */
function marksSignedIn(cookie: string): boolean {
  const document = { cookie, documentElement: { dataset: {} as Record<string, string> } };
  new Function("document", SIGNED_IN_HINT_SCRIPT)(document);
  return document.documentElement.dataset.auth === "in";
}

it("the head script reads the hint under its plain name (http) and its __Host- name (https)", () => {
  expect(marksSignedIn("plinth_signed_in=1")).toBe(true);
  expect(marksSignedIn("__Host-plinth_signed_in=1")).toBe(true);
  expect(marksSignedIn("a=b; __Host-plinth_signed_in=1; c=d")).toBe(true);
  expect(marksSignedIn("")).toBe(false);
  expect(marksSignedIn("plinth_signed_in=0")).toBe(false);
  expect(marksSignedIn("plinth_signed_in=10")).toBe(false);
  expect(marksSignedIn("x__Host-plinth_signed_in=1")).toBe(false);
  expect(marksSignedIn("__Secure-plinth_signed_in=1")).toBe(false);
});
