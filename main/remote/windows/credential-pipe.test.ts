import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { offerSecret } from './credential-pipe';

/** Connects, writes `first` (if any), and returns everything the server sent before closing. */
function client(path: string, first?: string): Promise<Buffer> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    const s = connect(path, () => {
      if (first !== undefined) s.write(first);
    });
    s.on('data', (b: Buffer) => parts.push(b));
    s.on('error', () => resolve(Buffer.concat(parts)));
    s.on('close', () => resolve(Buffer.concat(parts)));
    if (first === undefined) setTimeout(() => s.destroy(), 300);
  });
}

describe('a password handed over a one-shot pipe', () => {
  it('goes to the client that writes the nonce; the bytes are zeroed and the folder removed', async () => {
    const secret = Buffer.from('pä$$ w0rd', 'utf8');
    const h = await offerSecret(secret);
    expect(h.pipe).not.toContain('pä');
    const got = await client(h.pipe, h.nonce);
    expect(got.toString('utf8')).toBe('pä$$ w0rd');
    expect(h.delivered).toBe(true);
    expect(secret.every((b) => b === 0)).toBe(true);
    h.close();
    expect(existsSync(dirname(h.pipe))).toBe(false);
  });

  it('a client with the wrong nonce gets nothing, and the offer ends (no second try)', async () => {
    const secret = Buffer.from('s3cret', 'utf8');
    const h = await offerSecret(secret);
    const wrong = await client(h.pipe, 'f'.repeat(h.nonce.length));
    expect(wrong.length).toBe(0);
    expect(h.delivered).toBe(false);
    expect(secret.every((b) => b === 0)).toBe(true);
    const late = await client(h.pipe, h.nonce);
    expect(late.length).toBe(0);
    h.close();
  });

  it('a client that only reads gets nothing', async () => {
    const h = await offerSecret(Buffer.from('s3cret', 'utf8'));
    const reader = await client(h.pipe);
    expect(reader.length).toBe(0);
    expect(h.delivered).toBe(false);
    h.close();
  });

  it('refuses a password longer than the reader takes, and zeroes it', async () => {
    const secret = Buffer.alloc(2000, 0x61);
    await expect(offerSecret(secret)).rejects.toThrow(/longer than 1024 bytes/);
    expect(secret.every((b) => b === 0)).toBe(true);
  });
});
