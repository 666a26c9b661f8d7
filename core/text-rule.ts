/**
 * The one rule for free text an owner or a visitor types (ADR 095). Every such field ends up on a
 * page, in an e-mail, in a file or in the database, so it is one of two kinds:
 *  - single-line (titles, names, organisations): a tab becomes a space; a line break is refused;
 *  - multi-line (bio, long-form text, messages, descriptions): CRLF, CR and the Unicode line and
 *    paragraph separators become LF; tabs stay.
 * Both trim surrounding whitespace and refuse invisible characters: NUL and the other control
 * characters, lone surrogates, and the bidi embedding, override and isolate controls that make
 * text read differently from what it holds.
 */
import { z } from "zod";

export const TEXT_MESSAGES = {
  oneLine: "Please keep this to one line",
  invisible: "Please remove invisible characters",
} as const;

/** Line breaks: refused in a single-line field, made LF in a multi-line one. */
const LINE_BREAK = /[\r\n\u2028\u2029]/;
/** C0 controls but tab, LF and CR; DEL and the C1 controls; bidi embeddings, overrides and isolates; lone surrogates. */
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\p{Cs}]/u;

/** Whether a value has a character no text field accepts. */
export const hasInvisible = (value: string): boolean => INVISIBLE.test(value);

const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");
/** The value without the characters no text field accepts (for text decoded from what was accepted, ADR 148). */
export const withoutInvisible = (value: string): string => value.replace(INVISIBLE_ALL, "");

/** A one-line text field, trimmed. `error` is the message when the value is missing or not a string. */
export function singleLine(error?: string) {
  return z
    .string(error)
    .overwrite((s) => s.replace(/\t/g, " "))
    .trim()
    .refine((s) => !LINE_BREAK.test(s), TEXT_MESSAGES.oneLine)
    .refine((s) => !hasInvisible(s), TEXT_MESSAGES.invisible);
}

/** A multi-line text field, trimmed, with LF line breaks. */
export function multiLine(error?: string) {
  return z
    .string(error)
    .overwrite((s) => s.replace(/\r\n?|[\u2028\u2029]/g, "\n"))
    .trim()
    .refine((s) => !hasInvisible(s), TEXT_MESSAGES.invisible);
}
