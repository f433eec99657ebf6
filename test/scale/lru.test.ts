// src/cache/lru.ts: the response cache's bounded map. Nearly LRU (a hit in the newer half of the
// order is not moved): what is read is kept over what is not, expired entries are gone.
import { describe, expect, it } from 'vitest';
import { Lru } from '../../src/cache/lru.js';

const entry = (expiresAt = Number.MAX_SAFE_INTEGER) => ({ expiresAt });

describe('Lru', () => {
  it('drops the entry nobody read first, and keeps a hot entry through any number of inserts', () => {
    const lru = new Lru<{ expiresAt: number }>(4);
    const hot = entry();
    lru.set('hot', hot);
    for (let i = 0; i < 100; i += 1) {
      lru.set(`cold-${i}`, entry());
      expect(lru.get('hot')).toBe(hot);
      expect(lru.size).toBeLessThanOrEqual(4);
    }
    expect(lru.get('cold-95')).toBeUndefined(); // the oldest cold ones went
    expect(lru.get('cold-99')).toBeDefined();
  });

  it('keeps a read entry for at least max / 2 further inserts', () => {
    const lru = new Lru<{ expiresAt: number }>(10);
    for (let i = 0; i < 10; i += 1) lru.set(`k${i}`, entry());
    expect(lru.get('k0')).toBeDefined(); // oldest: moved to the newest end
    for (let i = 10; i < 15; i += 1) lru.set(`k${i}`, entry());
    expect(lru.get('k0')).toBeDefined();
    expect(lru.get('k1')).toBeUndefined(); // never read: evicted before k0
  });

  it('forgets expired entries and whole organizations', () => {
    const lru = new Lru<{ expiresAt: number }>(10);
    lru.set('org-a|1', entry(1000));
    lru.set('org-a|2', entry());
    lru.set('org-b|1', entry());
    expect(lru.get('org-a|1', 999)).toBeDefined();
    expect(lru.get('org-a|1', 1000)).toBeUndefined();
    lru.deletePrefix('org-a|');
    expect(lru.get('org-a|2')).toBeUndefined();
    expect(lru.get('org-b|1')).toBeDefined();
    expect(lru.size).toBe(1);
  });
});
