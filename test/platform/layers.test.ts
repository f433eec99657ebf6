// The layer rule (issue 31, scripts/layers.ts): imports point down the table or sideways, type
// imports included, and none closes a cycle. A failure lists each offending import as
// `file:line → target`, so a merge that brings one in is fixed where it says.
import { describe, expect, it } from 'vitest';
import { importCycles, importEdges, LAYERS, layerOf, layerReport, upwardImports, type Edge } from '../../scripts/layers.js';

describe('layers', () => {
  const edges = importEdges();

  it('every file of src/ and plugins/ is in a layer', () => {
    const files = [...new Set(edges.flatMap((e) => [e.from, e.to]))];
    expect(files.length).toBeGreaterThan(300);
    for (const file of files) expect(() => layerOf(file), file).not.toThrow();
  });

  it('no import points up the layers and none closes a cycle', () => {
    const { upward, cycles } = layerReport(edges);
    const order = LAYERS.map((layer) => layer.name).join(' ← ');
    const message = [`layers, bottom first: ${order}`, ...upward.map((line) => `upward import: ${line}`), ...cycles].join('\n');
    expect(upward.length + cycles.length, message).toBe(0);
  });

  it('the checks find what they look for (type imports too)', () => {
    const sample: Edge[] = [
      { from: 'src/services.ts', to: 'src/modules/inventory/index.ts', line: 3, typeOnly: true },
      { from: 'src/modules/orders/refunds.ts', to: 'src/modules/orders/settlement.ts', line: 21, typeOnly: false },
      { from: 'src/modules/orders/settlement.ts', to: 'src/modules/orders/refunds.ts', line: 6, typeOnly: true },
      { from: 'src/app.ts', to: 'src/modules/orders/refunds.ts', line: 9, typeOnly: false },
    ];
    expect(upwardImports(sample)).toEqual([sample[0]]);
    expect(importCycles(sample).map((c) => c.files)).toEqual([['src/modules/orders/refunds.ts', 'src/modules/orders/settlement.ts']]);
    const { upward, cycles } = layerReport(sample);
    expect(upward).toEqual(['src/services.ts:3 → src/modules/inventory/index.ts (type import): core imports modules']);
    expect(cycles[0]).toContain('src/modules/orders/settlement.ts:6 → src/modules/orders/refunds.ts (type import)');
  });
});
