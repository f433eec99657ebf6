// The server's V8 flags that must be on its command line (scripts/node-flags.ts): `npm start`
// gives them, and so does every bench target, so a ratio the bench prints is the server an
// operator runs. Dropping one from package.json would quietly cost 10–18% CPU per catalog page
// (each flag's measurements are in scripts/node-flags.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NPM_START_ARGS, SERVER_NODE_FLAGS } from '../../scripts/node-flags.js';

const root = path.resolve(import.meta.dirname, '../..');
const flags = [...SERVER_NODE_FLAGS];

describe('the server process flags', () => {
  it('npm start passes every one of them to node before the entry script', () => {
    const start: string = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
    expect(flags.length).toBeGreaterThan(0);
    expect(NPM_START_ARGS).toEqual([...flags, 'scripts/run-entry.mjs', 'server']);
    expect(start).toBe(`node ${NPM_START_ARGS.join(' ')}`);
  });

  it('are each accepted by this node on their own (a misspelt V8 flag makes node exit 9, "bad option")', () => {
    for (const flag of flags) {
      const run = spawnSync(process.execPath, [flag, '-e', 'process.stdout.write(JSON.stringify(process.execArgv))'], { encoding: 'utf8' });
      expect(run.status, `${flag}: ${run.stderr}`).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual([flag, '-e', 'process.stdout.write(JSON.stringify(process.execArgv))']);
    }
  });

  it('are flags this node accepts, and they take effect: the heap may grow larger than without them', () => {
    // V8 counts the young generation's cap (three semi-spaces' worth) in the heap's total, so a
    // larger semi-space shows as a larger total_available_size at start; an unknown or ignored
    // flag would exit non-zero or leave it the same.
    const available = (args: string[]) => {
      const run = spawnSync(process.execPath, [...args, '-e', "process.stdout.write(String(require('node:v8').getHeapStatistics().total_available_size))"], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      return Number(run.stdout);
    };
    expect(available(flags)).toBeGreaterThan(available([]));
  });
});
