// The server's error envelope as a screen needs it: the code (extensions.code) and, for 422
// VALIDATION_FAILED, the failing fields, so a form can put each message under its own input.
import type { CombinedError } from 'urql';

export interface FieldIssue {
  field: string;
  message: string;
}

export function errorCode(error: CombinedError | undefined): string | undefined {
  return error?.graphQLErrors[0]?.extensions?.code as string | undefined;
}

export function errorMessage(error: CombinedError | undefined): string {
  if (!error) return '';
  return error.graphQLErrors[0]?.message ?? error.networkError?.message ?? error.message;
}

/** The fields a 422 names (`details: [{ field, message }]`): the last path segment as the form field name, or the whole path with keepPath (nested forms). */
export function fieldIssues(error: CombinedError | undefined, options: { keepPath?: boolean } = {}): FieldIssue[] {
  const details = error?.graphQLErrors[0]?.extensions?.details;
  if (!Array.isArray(details)) return [];
  return details
    .filter((d): d is FieldIssue => typeof d === 'object' && d !== null && typeof (d as FieldIssue).field === 'string')
    .map((d) => ({ field: options.keepPath ? d.field : (d.field.split('.').pop() ?? d.field), message: d.message }));
}

/** Puts each named field's message on the form (react-hook-form's setError); answers the rest. */
export function applyFieldIssues(error: CombinedError | undefined, fields: readonly string[], setError: (name: never, value: { message: string }) => void): string | null {
  const issues = fieldIssues(error);
  const unplaced: string[] = [];
  for (const issue of issues) {
    if (fields.includes(issue.field)) setError(issue.field as never, { message: issue.message });
    else unplaced.push(`${issue.field}: ${issue.message}`);
  }
  if (issues.length && !unplaced.length) return null;
  return unplaced.length ? unplaced.join('; ') : errorMessage(error);
}
