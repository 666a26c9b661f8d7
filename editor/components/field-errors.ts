/** A form's zod issues as field name to its first message: the shape of the API's `fields` too. */
export function fieldsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const f: Record<string, string> = {};
  for (const issue of issues) f[String(issue.path[0])] ??= issue.message;
  return f;
}

/**
 * The errors still shown after an edit: an error leaves as soon as its field is valid (with the
 * field's current message while it is not), and typing never adds one; submitting does.
 */
export function clearFixed(shown: Record<string, string>, now: Record<string, string>): Record<string, string> {
  const left: Record<string, string> = {};
  for (const key of Object.keys(shown)) if (now[key]) left[key] = now[key];
  return left;
}

