/**
 * The server's half of the one password policy (ADR 047). core/schemas/auth.ts asks for 12+
 * characters and 4 of 5 character checks, which "Password123!" passes; here a password must also not
 * be easy to guess: not on the common and leaked-password lists, not a word with a digit, a year or a
 * keyboard row, not made of the owner's username or e-mail address. zxcvbn-ts with its common and
 * English dictionaries decides. The dictionaries are megabytes, so they live on the server only,
 * loaded on the first password set after a start, and never reach the site's bundles.
 */
import type { ZxcvbnFactory, ZxcvbnResult } from "@zxcvbn-ts/core";
import { eq } from "drizzle-orm";
import { AUTH_TEXT } from "#core/schemas/auth.ts";
import type { Db } from "#db/client.ts";
import { userProfiles, users } from "#db/schema.ts";
import { ApiError } from "../errors.ts";

export interface PersonalWords {
  email?: string | null;
  username?: string | null;
}

/** An account's e-mail address and username, which its password must not contain. */
export function personalWordsOf(db: Db, userId: string): PersonalWords {
  return (
    db
      .select({ email: users.email, username: userProfiles.username })
      .from(users)
      .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
      .where(eq(users.id, userId))
      .get() ?? {}
  );
}

/**
 * zxcvbn's score 4: at least 10^10 guesses, out of reach of an offline attack on a slow hash. Score
 * 3 (10^8) still lets "Aaaaaaaaaaa1" and "Summer2023!!" through.
 */
const MIN_GUESSES_LOG10 = 10;
/**
 * Only the first 64 characters are scored: zxcvbn's time grows fast with length (a 256-character
 * random password takes seconds), and 64 strong characters are strong whatever follows.
 */
const SCORED_LENGTH = 64;
/** A username or e-mail part shorter than this is too likely to turn up by chance. */
const PERSONAL_MIN = 4;

type Estimator = { check(password: string, userInputs: string[]): ZxcvbnResult; warnings: Record<string, string>; feedback(result: ZxcvbnResult): { warning: string | null; suggestions: string[] } };

let estimator: Promise<Estimator> | undefined;

function loadEstimator(): Promise<Estimator> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")]);
    const translations = { ...en.translations, warnings: { ...en.translations.warnings, userInputs: "It contains your username or email address." } };
    const factory: ZxcvbnFactory = new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations,
      maxLength: SCORED_LENGTH,
      // Caps the l33t variants tried per password, which bounds the time on symbol-heavy input.
      l33tMaxSubstitutions: 20,
    });
    // zxcvbn explains only scores 0-2; ours refuses a 3 too, so its explanation is asked for as for a 2.
    const explain = (factory as unknown as { feedback: { getFeedback(score: number, sequence: ZxcvbnResult["sequence"]): ZxcvbnResult["feedback"] } }).feedback;
    return {
      check: (password, userInputs) => factory.check(password, userInputs),
      warnings: translations.warnings,
      feedback: (result) => (typeof explain?.getFeedback === "function" ? explain.getFeedback(Math.min(result.score, 2), result.sequence) : result.feedback),
    };
  })();
  estimator.catch(() => (estimator = undefined));
  return estimator;
}

/** The personal words a password must not contain: the username, the e-mail address and its local part. */
function personalWords(personal: PersonalWords): string[] {
  const email = personal.email?.trim().toLowerCase() ?? "";
  const words = [personal.username?.trim().toLowerCase() ?? "", email, email.split("@")[0] ?? ""];
  return [...new Set(words.filter((w) => w.length >= PERSONAL_MIN))];
}

/** Why this password is refused, in one message, or null when it is fine. */
export async function guessablePasswordMessage(password: string, personal: PersonalWords): Promise<string | null> {
  const words = personalWords(personal);
  const lower = password.toLowerCase();
  if (words.some((w) => lower.includes(w))) return AUTH_TEXT.passwordPersonal;
  const zxcvbn = await loadEstimator();
  const result = zxcvbn.check(password, words);
  if (result.guessesLog10 >= MIN_GUESSES_LOG10) return null;
  const { warning, suggestions } = zxcvbn.feedback(result);
  const w = zxcvbn.warnings;
  const common = warning === w.topTen || warning === w.topHundred || warning === w.common || warning === w.similarToCommon;
  return [common ? AUTH_TEXT.passwordTooCommon : AUTH_TEXT.passwordGuessable, common ? null : warning, suggestions[0] ?? AUTH_TEXT.passwordGuessableHint].filter(Boolean).join(" ");
}

/** A 400 naming `field` when the password is too easy to guess; nothing is stored before this passes. */
export async function assertPasswordNotGuessable(password: string, personal: PersonalWords, field: string): Promise<void> {
  const message = await guessablePasswordMessage(password, personal);
  if (message) throw new ApiError("validation_failed", message, { fields: { [field]: message } });
}
