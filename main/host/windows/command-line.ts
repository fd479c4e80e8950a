/**
 * Splits a Windows command line (Win32_Process.CommandLine) into arguments the way the Microsoft
 * C runtime and Go's os.Args do, so kubelet/containerd flags read the same as on Linux:
 * - The program name ends at the next space, or at the closing quote if it starts quoted; it
 *   takes backslashes literally.
 * - After it, spaces and tabs separate arguments outside quotes; `"` toggles quoting.
 * - 2n backslashes before `"` give n backslashes and a quote toggle; 2n+1 give n backslashes
 *   and a literal `"`; backslashes anywhere else are literal (C:\Program Files\…).
 * - Inside quotes, `""` is a literal quote (the 2008+ CRT rule).
 */
export function splitWindowsCommandLine(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  const n = line.length;
  while (i < n && (line[i] === ' ' || line[i] === '\t')) i++;
  if (i >= n) return args;

  // Program name.
  let prog = '';
  if (line[i] === '"') {
    i++;
    while (i < n && line[i] !== '"') prog += line[i++];
    i++;
  } else {
    while (i < n && line[i] !== ' ' && line[i] !== '\t') prog += line[i++];
  }
  args.push(prog);

  for (;;) {
    while (i < n && (line[i] === ' ' || line[i] === '\t')) i++;
    if (i >= n) break;
    let arg = '';
    let quoted = false;
    while (i < n) {
      const c = line[i];
      if (c === '\\') {
        let slashes = 0;
        while (i < n && line[i] === '\\') {
          slashes++;
          i++;
        }
        if (line[i] === '"') {
          arg += '\\'.repeat(Math.floor(slashes / 2));
          if (slashes % 2 === 1) {
            arg += '"';
            i++;
          }
        } else {
          arg += '\\'.repeat(slashes);
        }
        continue;
      }
      if (c === '"') {
        if (quoted && line[i + 1] === '"') {
          arg += '"';
          i += 2;
          continue;
        }
        quoted = !quoted;
        i++;
        continue;
      }
      if (!quoted && (c === ' ' || c === '\t')) break;
      arg += c;
      i++;
    }
    args.push(arg);
  }
  return args;
}
