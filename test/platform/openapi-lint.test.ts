// /api/doc under Redocly's `recommended` ruleset (@redocly/openapi-core's lint API, the same
// rules `redocly lint` applies): no errors, and only the warnings openapi-lint.ts lists with a
// reason. The document linted is the one the server serves, with every shipped plugin enabled
// (their routes are part of the document a deployment using them serves).
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { shippedPlugins } from '../plugins/shipped.js';
import { ACCEPTED_WARNINGS } from './openapi-lint.js';

let t: TestApp;
let doc: Record<string, unknown>;

async function lint(document: unknown): Promise<NormalizedProblem[]> {
  const config = await createConfig({ extends: ['recommended'] });
  return lintFromString({ source: JSON.stringify(document), absoluteRef: 'api-doc.json', config });
}

const describeProblem = (p: NormalizedProblem) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`;

beforeAll(async () => {
  t = await startTestApp({ plugins: shippedPlugins() });
  const res = await t.request('/api/doc');
  expect(res.status).toBe(200);
  doc = res.body;
  expect(Object.keys(doc.paths as object).some((p) => p.startsWith('/api/marketplace/'))).toBe(true);
});
afterAll(() => t?.close());

describe('/api/doc under Redocly recommended', () => {
  it('has no errors and only the listed warnings', async () => {
    const problems = await lint(doc);
    expect(problems.filter((p) => p.severity === 'error').map(describeProblem)).toEqual([]);
    const warnings = problems.filter((p) => p.severity === 'warn');
    const byRule = new Map<string, NormalizedProblem[]>();
    for (const warning of warnings) byRule.set(warning.ruleId, [...(byRule.get(warning.ruleId) ?? []), warning]);
    for (const [rule, found] of byRule) {
      const accepted = ACCEPTED_WARNINGS[rule];
      expect(accepted, `unlisted warning: ${found.map(describeProblem).join('\n')}`).toBeDefined();
      expect(found.length, `more ${rule} warnings than listed:\n${found.map(describeProblem).join('\n')}`).toBeLessThanOrEqual(accepted!.count);
    }
  }, 60_000);

  it('every listed warning still happens and says why', async () => {
    const rules = new Set((await lint(doc)).filter((p) => p.severity === 'warn').map((p) => p.ruleId));
    for (const [rule, { reason }] of Object.entries(ACCEPTED_WARNINGS)) {
      expect(rules.has(rule), `${rule} is listed but no longer warned about: drop it`).toBe(true);
      expect(reason.length).toBeGreaterThan(20);
    }
  }, 60_000);

  it('would fail on what the issue found (identical paths, undefined security)', async () => {
    const broken = structuredClone(doc) as any;
    broken.paths['/api/catalog/entities/{idOrSlug}'] = broken.paths['/api/catalog/entities/{id}'];
    delete broken.paths['/api/auth/sign-out'].post.security;
    const rules = new Set((await lint(broken)).filter((p) => p.severity === 'error').map((p) => p.ruleId));
    expect(rules).toContain('no-identical-paths');
    expect(rules).toContain('security-defined');
  }, 60_000);
});
