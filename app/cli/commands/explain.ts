/**
 * `cni-doctor explain "TEXT"` (docs/cli.md): start from the user's error. The pasted event or log
 * line is matched against the log signatures and tied to the finding of a scan of the node that
 * explains it — or the answer says which signature matched and that no finding explains it.
 */
import type { ExplainMatch } from '../../../shared/api-explain';
import type { Finding } from '../../../shared/model/finding';
import { CRI_TIMEOUT_FLAG, JSON_FLAG, ROOT_FLAG, ArgError, defineCommand } from '../command';
import { ansi, formatFinding, plain, type Style } from '../format-text';
import { TARGET_FLAGS } from '../target-flags';
import { visible } from '../visible';
import { scanNode } from './scan';
import { textWidth, wrapText } from '../wrap';

export const explainCommand = defineCommand({
  name: 'explain',
  summary: 'start from your error: which finding explains a pasted event or log line',
  details: `TEXT is a FailedCreatePodSandBox event (kubectl describe pod / get events), a runtime or
kubelet log line, or several lines; "-" reads it from standard input. The node is scanned as
\`scan\` would (this machine, --bundle, --root or --target), and each line a log signature
recognises is tied to the finding of that scan that explains it.
Exit codes: 0 a finding explains the text; 3 a signature matched but no finding of this node
explains it, or no signature matched; 2 could not run, with one line on stderr.`,
  operand: { name: 'TEXT', help: 'the error as you saw it, quoted; - reads standard input' },
  flags: {
    bundle: {
      type: 'string',
      value: 'PATH',
      help: 'explain against a bundle instead of this node',
    },
    ...ROOT_FLAG,
    ...JSON_FLAG,
    ...CRI_TIMEOUT_FLAG,
    ...TARGET_FLAGS,
  },
  async run({ operand, flags }, io) {
    const text = operand === '-' ? await readStdin() : operand;
    if (text.trim() === '') throw new ArgError('TEXT is empty: paste the event or log line');
    const report = await scanNode(flags, io, 'explain', operand === '-' ? '-' : text);
    const { explainText } = await import('../../../main/engine/explain');
    const result = explainText(text, report);
    const explained = result.matches.some((m) => m.verdict === 'explained');
    if (flags.json) {
      io.out(JSON.stringify(result, null, 2));
      return explained ? 0 : 3;
    }
    const st = io.isTty ? ansi : plain;
    io.out(formatExplain(result.matches, result.lines, report.findings, st, textWidth(io.columns)));
    return explained ? 0 : 3;
  },
});

export function formatExplain(
  matches: readonly ExplainMatch[],
  lines: number,
  findings: readonly Finding[],
  st: Style,
  width = 100,
): string {
  const out: string[] = [];
  const wrap = (s: string, indent = ''): string[] =>
    wrapText(s, Math.max(20, width - indent.length)).map((l) => indent + l);
  if (matches.length === 0) {
    out.push(
      ...wrap(
        `No log signature recognises ${lines === 1 ? 'this line' : `these ${lines} lines`}. cni-doctor scan shows what it found on the node; docs/knowledge/log-signatures-*.md lists the lines it knows.`,
      ),
    );
    return out.join('\n');
  }
  const shown = new Set<string>();
  for (const m of matches) {
    out.push(...wrap(visible(`Matched ${m.signature.id}: ${m.signature.title}`)).map(st.bold));
    out.push(
      ...wrap(visible(`“${m.line.length > 300 ? `${m.line.slice(0, 300)}…` : m.line}”`), '  '),
    );
    const f = m.findingId ? findings.find((x) => x.id === m.findingId) : undefined;
    if (m.verdict === 'explained' && f) {
      out.push(...wrap(`Explained by the finding ${f.id} on this node:`, '  '), '');
      if (!shown.has(f.id)) out.push(...formatFinding(f, st, width), '');
      shown.add(f.id);
    } else if (m.verdict === 'generic') {
      out.push(
        ...wrap(
          `This line only says that the sandbox's network setup failed: ${m.signature.fix}${f ? ` The most likely cause on this node: ${f.title} [${f.id}].` : ' No finding on this node names a cause.'}`,
          '  ',
        ),
        '',
      );
    } else {
      out.push(
        ...wrap(
          `No finding on this node explains it (check ${m.rule} does not fail now: the line may be old, or from another node). What it means: ${m.signature.explanation} What to do: ${m.signature.fix}`,
          '  ',
        ),
        '',
      );
    }
  }
  return out.join('\n').trimEnd();
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of process.stdin) {
    const b = c as Buffer;
    size += b.length;
    if (size > 65_536) throw new ArgError('TEXT on standard input is over 64 KiB');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}
