// The bundled CLI writes the CRI definitions to a temporary folder before loading them; when
// TMPDIR cannot be used the user gets a sentence, not "EACCES: permission denied, mkdtemp
// '…/cni-doctor-cri-proto-XXXXXX'" (newcomer review, journey 5 bad-input table).
import { afterEach, describe, expect, it } from 'vitest';
import { loadFrom } from './load';

const saved = process.env.TMPDIR;
afterEach(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
});

describe('CRI definitions with an unusable TMPDIR', () => {
  it('says what failed and what to do, in words', () => {
    process.env.TMPDIR = '/nonexistent/cni-doctor-test-tmp';
    let message = '';
    try {
      loadFrom('embedded');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe(
      'cannot ask the runtime over CRI: the CRI API definitions are written to a temporary folder first, and /nonexistent/cni-doctor-test-tmp is not usable (no such file or folder); set TMPDIR to a folder this user can write',
    );
    expect(message).not.toMatch(/ENOENT|mkdtemp|XXXXXX/);
  });
});
