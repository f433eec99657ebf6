// Redocly `recommended` warnings /api/doc keeps on purpose, one entry per rule with the reason.
// openapi-lint.test.ts fails on any error, on a warning of a rule not listed here, and on more
// warnings of a listed rule than `count` (so a new one has to be argued for here first).
export const ACCEPTED_WARNINGS: Record<string, { count: number; reason: string }> = {
  'no-ambiguous-paths': {
    count: 2,
    reason:
      '/api/media/{id}/content (GET) and /api/media/attachments/{attachmentId} (DELETE) both match /api/media/attachments/content, ' +
      "but never for the same method, and both routes are the spec's public contract: renaming either would break clients. " +
      '/api/payments/webhook/{provider} and /api/payments/{id}/confirm both match /api/payments/webhook/confirm; a payment id is a UUID, ' +
      'never "webhook", so the router never confuses them (issue 26).',
  },
  'operation-4xx-response': {
    count: 1,
    reason: 'GET /api/auth/get-session answers 200 with null when there is no session: better-auth has no 4xx for it to document.',
  },
};
