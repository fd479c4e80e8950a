/**
 * The kubelet flags a Windows start script passes (sig-windows-tools' StartKubelet.ps1, AKS-Engine's
 * kubeletstart.ps1, K2s; docs/knowledge/windows-node.md#how-the-kubelet-is-started), each with the
 * line it is on, so a finding can quote the script.
 *
 * Not a PowerShell parser: the scripts build the command line as text (`$cmd = "C:\k\kubelet.exe
 * … --network-plugin=cni …"; Invoke-Expression $cmd`), append to an argument variable
 * (`$global:KubeletArgs += " --cert-dir=…"`), list arguments in an array (`$KubeletArgList =
 * @("--address=0.0.0.0", …)`) or call the binary across lines joined with a backtick. So the text
 * is cut into statements (a backtick at a line's end, an open string, bracket or here-string
 * carries on to the next line; comments are dropped), and the `--flags` of every statement that
 * names the kubelet (its binary or a variable like `$KubeletArgs`) are taken, with their own line.
 * A statement about another program (`docker network ls --format …`) names no kubelet and is
 * left out.
 */
import type { KubeletFlag } from '../../../shared/model/snapshot';

export interface ScriptFlags {
  flags: KubeletFlag[];
  /** Some statement names the kubelet: the script is a kubelet start script. */
  startsKubelet: boolean;
}

interface Statement {
  /** 1-based line number and the code on it (comments removed). */
  lines: { line: number; code: string }[];
}

const NAMES_KUBELET = /kubelet/i;
const FLAG = /(?:^|[\s"'(,@`])--([A-Za-z0-9][A-Za-z0-9-]*)(?:=((?:`"[^`"]*`"|`'|[^\s"',)`])*))?/g;

export function scriptKubeletFlags(text: string, path: string): ScriptFlags {
  const flags: KubeletFlag[] = [];
  let startsKubelet = false;
  for (const st of statements(text)) {
    if (!st.lines.some((l) => NAMES_KUBELET.test(l.code))) continue;
    startsKubelet = true;
    for (const { line, code } of st.lines) {
      for (const m of code.matchAll(FLAG)) {
        const name = m[1] as string;
        const raw = m[2];
        const value = raw === undefined ? undefined : raw.replace(/`"|`'|["'`]/g, '');
        flags.push({ name, ...(value !== undefined && { value }), source: path, line });
      }
    }
  }
  return { flags, startsKubelet };
}

/** The script's statements; see the file comment for what joins lines. */
function statements(text: string): Statement[] {
  const out: Statement[] = [];
  let current: Statement | undefined;
  let quote: '"' | "'" | undefined;
  let here: '"' | "'" | undefined;
  let depth = 0;
  let blockComment = false;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    let code = '';
    let continued = false;
    if (here !== undefined) {
      // Inside a here-string: the line is text until a line that starts with its closing "@ / '@.
      if (raw.startsWith(`${here}@`)) here = undefined;
      code = raw;
    } else {
      let j = 0;
      while (j < raw.length) {
        const c = raw[j] as string;
        if (blockComment) {
          if (raw.startsWith('#>', j)) {
            blockComment = false;
            j += 2;
          } else j++;
          continue;
        }
        if (quote === undefined) {
          if (raw.startsWith('<#', j)) {
            blockComment = true;
            j += 2;
            continue;
          }
          if (c === '#') break; // a comment to the end of the line
          if (
            (raw.startsWith('@"', j) || raw.startsWith("@'", j)) &&
            j + 2 >= raw.trimEnd().length
          ) {
            here = raw[j + 1] as '"' | "'";
            code += raw.slice(j);
            break;
          }
          if (c === '"' || c === "'") quote = c;
          // Brackets carry a statement on (a multi-line @( … ) argument list); braces do not: a
          // script block holds whole statements, and a script wrapped in one must not become one.
          else if (c === '(' || c === '[') depth++;
          else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
          else if (c === '`' && j === raw.trimEnd().length - 1) {
            continued = true;
            break;
          }
          code += c;
          j++;
          continue;
        }
        // Inside a string: a backtick escapes the next character in "…"; '' is a quote in '…'.
        if (quote === '"' && c === '`') {
          code += raw.slice(j, j + 2);
          j += 2;
          continue;
        }
        if (c === quote) {
          if (quote === "'" && raw[j + 1] === "'") {
            code += "''";
            j += 2;
            continue;
          }
          quote = undefined;
        }
        code += c;
        j++;
      }
    }
    current ??= { lines: [] };
    if (code.trim() !== '') current.lines.push({ line: i + 1, code });
    const open =
      continued || quote !== undefined || here !== undefined || depth > 0 || blockComment;
    if (!open || blockComment) {
      if (current.lines.length > 0) out.push(current);
      current = undefined;
    }
  }
  if (current && current.lines.length > 0) out.push(current);
  return out;
}
