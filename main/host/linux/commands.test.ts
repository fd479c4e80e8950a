import { describe, expect, it } from 'vitest';
import { journalFact } from './commands';

describe('journalFact', () => {
  it('reads no journal as none, like a scan on the node (a remote agent runs journalctl anyway)', () => {
    // journalctl's answer on the lab cluster's node, through a kubectl debug pod: no systemd.
    expect(journalFact('No journal files were found.\n-- No entries --\n')).toBeUndefined();
    expect(journalFact('-- No entries --\n')).toBeUndefined();
    expect(journalFact('')).toBeUndefined();
  });

  it('keeps a unit’s lines', () => {
    const out = '2026-01-01T00:00:00+0000 n containerd[1]: msg\n';
    expect(journalFact(out)).toEqual({ known: true, value: out });
  });
});
