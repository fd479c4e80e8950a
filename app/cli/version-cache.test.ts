import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileVersionCache } from '../../main/remote/version-cache';
import { cliVersionCache } from './version-cache';

const root = mkdtempSync(join(tmpdir(), 'cnd-cli-version-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('cliVersionCache', () => {
  it("is a file in the user's cache directory, made private if it is new", () => {
    const xdg = join(root, 'xdg');
    mkdirSync(xdg);
    const c = cliVersionCache({ XDG_CACHE_HOME: xdg });
    expect(c).toBeInstanceOf(FileVersionCache);
    c?.remember('k', 'CNI protocol versions supported: 1.0.0\n');
    c?.save();
    expect(cliVersionCache({ XDG_CACHE_HOME: xdg })?.get('k')).toBe(
      'CNI protocol versions supported: 1.0.0\n',
    );
  });

  it("is none when turned off, or when the directory is not safely the user's", () => {
    const xdg = join(root, 'open');
    mkdirSync(join(xdg, 'cni-doctor'), { recursive: true });
    chmodSync(join(xdg, 'cni-doctor'), 0o777);
    expect(cliVersionCache({ XDG_CACHE_HOME: xdg })).toBeUndefined();
    expect(
      cliVersionCache({ XDG_CACHE_HOME: join(root, 'xdg'), CNI_DOCTOR_VERSION_CACHE: 'off' }),
    ).toBeUndefined();
  });
});
