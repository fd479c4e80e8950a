/**
 * A report as private as `collect`: every string a finding quotes from the node — file lines,
 * log lines, process arguments, registry values, notes, summaries — goes through the same
 * redaction a bundle's files go through, before any door shows or exports it (scan text, JSON
 * and HTML, the UI, its "Export report" and "Copy as Markdown"). A file's quoted lines are taken
 * from the whole file redacted as collect would ship it (by key path for JSON, TOML and YAML),
 * so a line is hidden the same in a report and in a bundle. Ids, rule names and paths stay: a
 * repair id must still work with `fix`.
 */
import type { Evidence, Finding } from '../../../shared/model/finding';
import type { Report } from '../../../shared/model/report';
import type { Snapshot } from '../../../shared/model/snapshot';
import { findText } from '../../rules/evidence';
import { redactArgs, redactCommandLine, redactText } from '../redact';
import { redactFile } from '.';

class Counter {
  hidden = 0;
  /** Per file path: the file's redacted lines (undefined: the whole file is withheld). */
  private readonly files = new Map<string, string[] | undefined>();

  text(s: string): string;
  text(s: string | undefined): string | undefined;
  text(s: string | undefined): string | undefined {
    if (s === undefined) return s;
    const r = redactText(s);
    this.hidden += r.whats.length;
    return r.text;
  }

  /** The redacted lines of a file the snapshot holds, split as evidence.ts's excerpt splits. */
  fileLines(snapshot: Snapshot | undefined, path: string): string[] | undefined | null {
    if (this.files.has(path)) return this.files.get(path);
    const text = snapshot ? findText(snapshot, path) : undefined;
    if (text === undefined) return null;
    const r = redactFile(path, Buffer.from(text));
    const withheld = r.data.length === 0 && text.length > 0;
    const lines = withheld ? undefined : r.data.toString('utf8').split(/\r?\n/);
    this.hidden += r.redactions.length;
    this.files.set(path, lines);
    return lines;
  }
}

function evidence(e: Evidence, c: Counter, snapshot: Snapshot | undefined): Evidence {
  switch (e.kind) {
    case 'file': {
      if (e.lines.length === 0) return { ...e, ...(e.note && { note: c.text(e.note) }) };
      const whole = c.fileLines(snapshot, e.path);
      let lines: typeof e.lines;
      if (whole === undefined) {
        lines = e.lines.map((l) => ({ ...l, text: '(withheld: its secrets could not be hidden)' }));
      } else if (whole !== null) {
        // The same line of the file as collect would ship it, cut as the excerpt was.
        lines = e.lines.map((l) => {
          const text = whole[l.line - 1];
          return { ...l, text: text === undefined ? c.text(l.text) : text.slice(0, 300) };
        });
      } else {
        // Not a file of the snapshot (a script quoted from elsewhere): its lines as free text,
        // together, so a key block across them is found.
        const joined = e.lines.map((l) => l.text).join('\n');
        const r = redactFile(e.path, Buffer.from(joined));
        c.hidden += r.redactions.length;
        const out =
          r.data.length === 0 && joined.length > 0 ? undefined : r.data.toString().split('\n');
        lines = e.lines.map((l, i) => ({
          ...l,
          text: out?.[i] ?? '(withheld: its secrets could not be hidden)',
        }));
      }
      return { ...e, lines, ...(e.note && { note: c.text(e.note) }) };
    }
    case 'log':
      return { ...e, text: c.text(e.text), ...(e.note && { note: c.text(e.note) }) };
    case 'process': {
      const r = redactArgs(e.name, e.args);
      c.hidden += r.redactions.length;
      return { ...e, args: r.args };
    }
    case 'registry': {
      const r = redactCommandLine(e.key, e.data);
      c.hidden += r.redactions.length;
      return { ...e, data: r.line, ...(e.note && { note: c.text(e.note) }) };
    }
    case 'cri':
      return { ...e, value: c.text(e.value) };
    case 'hns':
      return { ...e, detail: c.text(e.detail) };
    case 'path':
      return { ...e, ...(e.note && { note: c.text(e.note) }) };
    case 'conf-dir':
      return {
        ...e,
        entries: e.entries.map((x) => ({ ...x, ...(x.note && { note: c.text(x.note) }) })),
        ...(e.note && { note: c.text(e.note) }),
      };
    case 'text':
      return { ...e, text: c.text(e.text) };
  }
}

function finding(f: Finding, c: Counter, snapshot: Snapshot | undefined): Finding {
  return {
    ...f,
    title: c.text(f.title),
    summary: c.text(f.summary),
    ...(f.guidance !== undefined && { guidance: c.text(f.guidance) }),
    evidence: f.evidence.map((e) => evidence(e, c, snapshot)),
  };
}

/**
 * The report with every quoted node string redacted, and `redaction` saying so and how many
 * values were hidden. `snapshot` lets a file's lines be redacted with the whole file in view.
 */
export function redactReport(report: Report, snapshot?: Snapshot): Report {
  const c = new Counter();
  const findings = report.findings.map((f) => finding(f, c, snapshot));
  const checks = report.checks.map((k) =>
    k.reason === undefined ? k : { ...k, reason: c.text(k.reason) },
  );
  const s = report.summary;
  const summary = s && {
    ...s,
    ...(s.criConditions && {
      criConditions: s.criConditions.map((x) => ({
        ...x,
        ...(x.message !== undefined && { message: c.text(x.message) }),
      })),
    }),
  };
  const logs = report.unexplainedLogLines;
  const unexplainedLogLines = logs && {
    ...logs,
    lines: logs.lines.map((l) => ({ ...l, text: c.text(l.text) })),
  };
  // The pictures quote parse errors and reasons from the node as the checks do.
  const loadOrder = report.loadOrder?.map((l) => ({
    ...l,
    side: {
      ...l.side,
      ...(l.side.note !== undefined && { note: c.text(l.side.note) }),
      entries: l.side.entries.map((e) =>
        e.note === undefined ? e : { ...e, note: c.text(e.note) },
      ),
    },
  }));
  const chain = report.windowsChain;
  const windowsChain = chain && {
    ...chain,
    links: chain.links.map((l) => ({ ...l, detail: c.text(l.detail) })),
  };
  return {
    ...report,
    findings,
    checks,
    ...(loadOrder && { loadOrder }),
    ...(windowsChain && { windowsChain }),
    ...(summary && { summary }),
    ...(unexplainedLogLines && { unexplainedLogLines }),
    redaction: { evidence: 'redacted', hidden: c.hidden },
  };
}

/** The report as the rules wrote it, marked as not redacted (what `scan --unredacted` shows). */
export function unredactedReport(report: Report): Report {
  return { ...report, redaction: { evidence: 'unredacted' } };
}
