import { describe, expect, it } from 'vitest';
import { inWords, osErrorWords } from './os-error';

describe('operating-system errors in words', () => {
  it('rewrites what Node says about a failed file operation', () => {
    expect(
      inWords("EACCES: permission denied, mkdtemp '/ro/tmp/cni-doctor-cri-proto-XXXXXX'"),
    ).toBe('could not create a temporary folder in /ro/tmp: permission denied');
    expect(
      inWords(
        "cannot read the journal in /var/lib/cni-doctor: ENOENT: no such file or directory, open '/var/lib/cni-doctor/x.json'",
      ),
    ).toBe(
      'cannot read the journal in /var/lib/cni-doctor: could not open /var/lib/cni-doctor/x.json: no such file or folder',
    );
    expect(inWords("EXDEV: cross-device link not permitted, rename '/a' -> '/b'")).toBe(
      "EXDEV: cross-device link not permitted, rename '/a' -> '/b'",
    );
    expect(inWords("EROFS: read-only file system, rename '/a' -> '/b'")).toBe(
      'could not rename /a to /b: the file system is read-only',
    );
  });

  it('turns a bare code into words and leaves other text alone', () => {
    expect(inWords('No connection established. Last error: connect EACCES /run/x.sock')).toBe(
      'No connection established. Last error: connect (permission denied) /run/x.sock',
    );
    expect(inWords('cannot open bundle b.tar.gz: ENOENT')).toBe(
      'cannot open bundle b.tar.gz: (no such file or folder)',
    );
    expect(inWords('EOF in TOML at line 3; ENV and EXIT are words')).toBe(
      'EOF in TOML at line 3; ENV and EXIT are words',
    );
  });

  it('knows a thrown error’s code', () => {
    expect(osErrorWords(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe(
      'permission denied',
    );
    expect(osErrorWords(new Error('x'))).toBeUndefined();
    expect(osErrorWords(null)).toBeUndefined();
  });
});
