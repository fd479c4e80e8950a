/**
 * A password asked on the terminal without echo (winrm:USER@HOST, PowerShell remoting with
 * -Credential). It is returned to the caller, used once to build a SecureString in the local
 * PowerShell and never written anywhere. Without a terminal on stdin nothing is asked: a password
 * read from a pipe would sit in a file or a shell history.
 */
import type { Readable, Writable } from 'node:stream';

interface Tty extends Readable {
  isTTY?: boolean;
  setRawMode?: (raw: boolean) => unknown;
}

export function askPassword(
  prompt: string,
  input: Tty = process.stdin,
  output: Writable = process.stderr,
): Promise<string | undefined> {
  if (input.isTTY !== true || typeof input.setRawMode !== 'function')
    return Promise.resolve(undefined);
  const setRaw = input.setRawMode.bind(input);
  return new Promise((resolve) => {
    let typed = '';
    output.write(prompt);
    setRaw(true);
    input.resume();
    const done = (value: string | undefined): void => {
      input.off('data', onData);
      setRaw(false);
      input.pause();
      output.write('\n');
      resolve(value);
    };
    const onData = (chunk: Buffer | string): void => {
      for (const ch of chunk.toString()) {
        if (ch === '\r' || ch === '\n') return done(typed);
        if (ch === '\u0003' || ch === '\u0004') return done(undefined); // Ctrl-C, Ctrl-D
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    input.on('data', onData);
  });
}
