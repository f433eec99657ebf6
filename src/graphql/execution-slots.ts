// Execution slots for heavy operations (README: Scaling → Execution slots): an operation whose
// cost (graphql/cost.ts, the weights of graphql.maxCost and the rate charge) is at least
// executionSlots.minCost runs only when one of executionSlots.max slots is free; the others wait
// in arrival order, after their guards and before any resolver. Cheaper operations never wait.
//
// Why: a heavy read holds what it has built (parsed rows, domain objects, the result tree) while
// it awaits PostgreSQL. Fifty of them started at once outgrow V8's young generation, so every
// scavenge copies that live set and promotes part of it to the old generation, where only full
// collections free it. The list of 20 with includes costs 5.3 ms of server CPU per request at 50
// connections and 3.4 ms at 10 (README: Issue 30 goals); with these slots at 50 connections the
// REST list costs 0.854 and the GraphQL list 0.917 of what it did without them (same-run A/B).
// Limiting every request at the listener instead (tried first) cost the cheap reads 20% at 50
// connections: a process running fewer of them at once handles fewer per wake-up. A cheap
// operation holds too little to matter, so only the heavy ones queue.
//
// A slow operation cannot block the queue: one still running after holdMs (a long report) gives
// its slot back and runs on outside the count. Written here rather than taken from p-limit or a
// semaphore package: none of them gives a slot back on a timer.
export interface ExecutionSlots {
  /** Waits for a free slot; resolves to the function that gives it back (once; later calls do nothing). */
  acquire(): Promise<() => void>;
  /** Operations holding a slot now (those past holdMs no longer count). */
  readonly running: number;
  /** Operations waiting for a slot now. */
  readonly waiting: number;
  readonly max: number;
}

export function createExecutionSlots(max: number, holdMs: number): ExecutionSlots {
  let running = 0;
  const queue: Array<() => void> = [];

  /** A freed slot passes straight to the longest waiter, so `running` only drops when nobody waits. */
  function handOn(): void {
    const next = queue.shift();
    if (next) next();
    else running--;
  }

  async function acquire(): Promise<() => void> {
    if (running < max) running++;
    else await new Promise<void>((resolve) => queue.push(resolve));
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      handOn();
    };
    const timer = setTimeout(release, holdMs);
    return release;
  }

  return {
    acquire,
    max,
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
  };
}
