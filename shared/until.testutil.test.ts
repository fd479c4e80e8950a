import { describe, expect, it } from 'vitest';
import { until } from './until.testutil';

describe('until', () => {
  it('returns once the condition holds', async () => {
    let n = 0;
    await until(() => ++n >= 3, 'the third check', { intervalMs: 1 });
    expect(n).toBe(3);
  });

  it('says what it waited for when the condition never holds', async () => {
    await expect(until(() => false, 'the sky to fall', { timeoutMs: 20 })).rejects.toThrow(
      'still waiting, after 20 ms, for the sky to fall',
    );
    await expect(
      until(
        () => {
          throw new Error('boom');
        },
        'a check that throws',
        { timeoutMs: 20 },
      ),
    ).rejects.toThrow('for a check that throws (last check threw: boom)');
  });
});
