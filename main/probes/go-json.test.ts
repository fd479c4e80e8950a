import { describe, expect, it } from 'vitest';
import { nestingError } from './go-json';

/** A string whose character reads are counted (nestingError walks a text with charCodeAt). */
function counted(text: string): { text: string; reads: () => number } {
  let reads = 0;
  class Counted extends String {
    override charCodeAt(i: number): number {
      reads++;
      return super.charCodeAt(i);
    }
  }
  return { text: new Counted(text) as unknown as string, reads: () => reads };
}

describe('nestingError (Go encoding/json maxNestingDepth 10000)', () => {
  it('refuses 10001 levels and takes 10000, brackets inside strings aside', () => {
    expect(nestingError(`${'['.repeat(10001)}${']'.repeat(10001)}`)).toBe('exceeded max depth');
    expect(nestingError(`${'['.repeat(10000)}${']'.repeat(10000)}`)).toBeUndefined();
    expect(nestingError(`["${'['.repeat(20000)}"]`)).toBeUndefined();
    expect(nestingError(`${'{"a":'.repeat(10001)}1${'}'.repeat(10001)}`)).toBe(
      'exceeded max depth',
    );
  });

  it('does not walk a text too short to nest that deep (every conf of a real node)', () => {
    const conf = counted(JSON.stringify({ cniVersion: '1.0.0', name: 'n', plugins: [{}] }));
    expect(nestingError(conf.text)).toBeUndefined();
    expect(conf.reads()).toBe(0);
    const deep = counted('['.repeat(10001));
    expect(nestingError(deep.text)).toBe('exceeded max depth');
    expect(deep.reads()).toBe(10001);
  });
});
