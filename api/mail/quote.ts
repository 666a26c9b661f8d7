/**
 * Someone else's words in a plain-text e-mail (a page owner's text, an admin's reason): a quoted
 * block, one "> " line per line, without the control characters that could break or reorder it.
 */
export function quoted(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    // Control characters, and the ones that reorder text, so the quote reads as it is stored.
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, "")
    .trim()
    .split("\n")
    .map((line) => `> ${line}`.trimEnd())
    .join("\n");
}
