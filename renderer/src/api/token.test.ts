import { describe, expect, it } from 'vitest';
import { takeToken } from './token';

function storage(): Pick<Storage, 'getItem' | 'setItem'> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('takeToken', () => {
  it('takes the token from the fragment, keeps it for this tab and strips it from the address bar', () => {
    const s = storage();
    let replaced = '';
    const t = takeToken(
      { hash: '#token=abcDEF_123-xyz0123456', pathname: '/', search: '' },
      s,
      (u) => (replaced = u),
    );
    expect(t).toBe('abcDEF_123-xyz0123456');
    expect(replaced).toBe('/');
    expect(takeToken({ hash: '', pathname: '/', search: '' }, s, () => undefined)).toBe(t);
  });

  it('ignores junk in the fragment', () => {
    const s = storage();
    expect(
      takeToken({ hash: '#token=<script>', pathname: '/', search: '' }, s, () => undefined),
    ).toBeUndefined();
    expect(
      takeToken({ hash: '#other=1', pathname: '/', search: '' }, s, () => undefined),
    ).toBeUndefined();
  });
});
