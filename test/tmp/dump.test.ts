import fs from 'node:fs';
import { it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { startTestApp } from '../support/app.js';
it('dump', async () => {
  const t = await startTestApp();
  const res = await t.request('/api/doc');
  fs.writeFileSync('/tmp/cr-doc.json', JSON.stringify(res.body, null, 2));
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(res.body), absoluteRef: '/tmp/doc.json', config });
  const counts: Record<string, number> = {};
  for (const p of problems) counts[`${p.severity} ${p.ruleId}`] = (counts[`${p.severity} ${p.ruleId}`] ?? 0) + 1;
  fs.writeFileSync('/tmp/cr-lint.json', JSON.stringify({ counts, problems: problems.map((p) => ({ rule: p.ruleId, sev: p.severity, msg: p.message, loc: p.location[0]?.pointer })) }, null, 2));
  await t.close();
}, 120000);
