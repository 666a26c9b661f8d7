/** A form's zod issues as field name to its first message: the shape of the API's `fields` too. */
export function fieldsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const f: Record<string, string> = {};
  for (const issue of issues) f[String(issue.path[0])] ??= issue.message;
  return f;
}
