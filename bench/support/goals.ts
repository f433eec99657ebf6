// Issue 30's goals, each printed with what it is measured against and PASS or FAIL. A bench
// prints its goals as lines starting `GOAL|` (JSON after the bar) so bench/run.ts can gather the
// ones its child benches print (checkout, production) into one table at the end.

export interface Goal {
  /** Which goal of issue 30 (1, 2, 3, 4, 5, or 'card' for the storefront card comparison). */
  goal: string;
  name: string;
  /** What was measured, in `unit`; null when nothing was measured (no request completed): FAIL. */
  measured: number | null;
  /** What it is held against (the floor, or the fixed bound), in `unit`; null when not measured. */
  floor: number | null;
  /** How the floor is read: "2 × (floor 0.120 + adapter 0.050)", "≤ 12 ms"... */
  rule: string;
  /** measured ÷ floor (null for a fixed bound). */
  ratio: number | null;
  unit: string;
  pass: boolean;
}

export function goalLine(goal: Goal): string {
  return `GOAL|${JSON.stringify(goal)}`;
}

export function parseGoalLines(text: string): Goal[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('GOAL|'))
    .map((line) => JSON.parse(line.slice('GOAL|'.length)) as Goal);
}

export function printGoals(goals: Goal[]): void {
  console.log('\n## Issue 30 goals (same run: floors and raw measured beside the app)');
  console.log('| goal | measure | measured | bound | rule | ratio to floor | result |');
  console.log('|---|---|---:|---:|---|---:|---|');
  for (const g of goals) {
    const bound = g.floor === null ? '—' : `${g.floor.toFixed(3)} ${g.unit}`;
    console.log(
      `| ${g.goal} | ${g.name} | ${g.measured === null ? 'not measured' : `${g.measured.toFixed(3)} ${g.unit}`} | ${bound} | ${g.rule} | ${g.ratio === null ? '—' : `${g.ratio.toFixed(2)}×`} | ${g.pass ? 'PASS' : 'FAIL'} |`,
    );
  }
}
