/**
 * Hands a password to the local PowerShell without putting it in any script text: a one-shot
 * local pipe that this process serves and the connect script reads (remoting-credential.ts), so
 * the password is never in a command line, an environment variable, a file, or a script block
 * that PowerShell's script block logging (event 4104) could record — the script only names the
 * pipe and a nonce.
 *
 * - Windows: a named pipe `\\.\pipe\cni-doctor-cred-<random>`. Its default DACL lets Everyone
 *   open it for reading, so the secret goes only to the first client that WRITES the nonce
 *   (which needs the owner's write access) and the pipe then closes: a reader that races in
 *   first gets nothing, and the real client then fails with a clear message.
 * - Linux/macOS (tests, and pwsh there): a Unix socket in a folder only this user can enter;
 *   .NET's NamedPipeClientStream takes its absolute path as the pipe name.
 *
 * The secret is kept as bytes and zeroed once written or given up on.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A password longer than this is refused (the reader's buffer is this size). */
export const MAX_SECRET_BYTES = 1024;
/** How long the client may take to connect and present the nonce. */
const CLIENT_WAIT_MS = 30_000;

export interface SecretHandoff {
  /** The name the PowerShell client opens (a pipe name on Windows, a socket path elsewhere). */
  pipe: string;
  /** What the client must write first. */
  nonce: string;
  /** Whether the secret went to a client that presented the nonce. */
  readonly delivered: boolean;
  /** Stops serving, removes the socket folder, zeroes the secret (idempotent). */
  close(): void;
}

export async function offerSecret(
  secret: Buffer,
  platform: NodeJS.Platform = process.platform,
): Promise<SecretHandoff> {
  if (secret.length > MAX_SECRET_BYTES) {
    secret.fill(0);
    throw new Error(`the password is longer than ${MAX_SECRET_BYTES} bytes`);
  }
  const nonce = randomBytes(16).toString('hex');
  const expected = Buffer.from(nonce, 'ascii');
  let dir: string | undefined;
  let listenPath: string;
  let pipe: string;
  if (platform === 'win32') {
    pipe = `cni-doctor-cred-${randomBytes(16).toString('hex')}`;
    listenPath = `\\\\.\\pipe\\${pipe}`;
  } else {
    dir = mkdtempSync(join(tmpdir(), 'cni-doctor-cred-')); // mode 0700
    listenPath = join(dir, 's');
    pipe = listenPath;
  }
  let delivered = false;
  let closed = false;
  const server: Server = createServer({ pauseOnConnect: false });
  const close = (): void => {
    if (closed) return;
    closed = true;
    secret.fill(0);
    server.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  };
  // One client only: whoever connects first either proves itself or ends the offer.
  server.once('connection', (sock: Socket) => {
    server.close();
    let got = Buffer.alloc(0);
    const timer = setTimeout(() => {
      sock.destroy();
      close();
    }, CLIENT_WAIT_MS);
    timer.unref();
    sock.on('error', () => undefined);
    sock.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length < expected.length) return;
      clearTimeout(timer);
      sock.removeAllListeners('data');
      if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
        sock.destroy();
        close();
        return;
      }
      delivered = true;
      sock.end(secret, () => close());
    });
  });
  server.on('error', () => close());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    pipe,
    nonce,
    get delivered() {
      return delivered;
    },
    close,
  };
}
