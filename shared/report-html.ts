/**
 * The whole report as one self-contained HTML page: what a support engineer attaches to an
 * escalation and anyone opens offline (no script, no external request, styles inline, light and
 * dark). Used by `scan --html FILE` and by the UI's "Export report". Browser-safe and pure.
 *
 * Every string from the node (file names, config lines, log lines, HNS names) is escaped here:
 * a hostile bundle cannot put markup or script into the page.
 */
import type { CheckResult, Evidence, Finding } from './model/finding';
import type { AccessNote, Report } from './model/report';
import { accessBanner } from './access-banner';
import { escapeHtml } from './escape';
import { shellLine } from './shell-quote';
import { PICTURES_STYLE, chainSection, laneHtml, lanesSection } from './pictures-html';

export interface HtmlReportOptions {
  /** What was scanned, in the words the UI uses ("live node", a bundle's file name, a demo). */
  label: string;
  /** The tool version that wrote the page. */
  version?: string;
}

// Escaping for every output format lives in escape.ts; re-exported for existing callers.
export { escapeHtml };

const h = escapeHtml;

/** The command that applies a repair on the same node the report is about. */
export function fixCommand(repairId: string, report: Pick<Report, 'target'>): string {
  const target = report.target?.target;
  const args = ['cni-doctor', 'fix', repairId];
  if (target && target !== 'local') args.push('--target', target);
  return shellLine(args);
}

function lines(ls: { line: number; text: string; highlight?: boolean }[]): string {
  return ls
    .map(
      (l) =>
        `<span class="ln${l.highlight ? ' hl' : ''}"><span class="no">${l.line}</span>${
          l.highlight ? '<span class="sr">offending line: </span>' : ''
        }${h(l.text)}</span>`,
    )
    .join('\n');
}

function evidence(e: Evidence): string {
  switch (e.kind) {
    case 'file':
      return `<figure><figcaption><b>File</b> <code>${h(e.path)}</code>${
        e.note ? ` — ${h(e.note)}` : ''
      }</figcaption><pre tabindex="0">${lines(e.lines)}</pre></figure>`;
    case 'conf-dir':
      // The lane, then the same files as a list with every detail (plugins, notes).
      return `<figure><figcaption><b>Conf dir</b> <code>${h(e.path)}</code> as ${h(
        e.runtime,
      )} reads it, in load order${e.note ? ` — ${h(e.note)}` : ''}</figcaption>${laneHtml(
        { confDir: e.path, entries: e.entries },
        e.runtime,
      )}<ol>${e.entries
        .map(
          (x) =>
            `<li><code>${h(x.name)}</code> <span class="role">${h(x.role)}</span>${
              x.network ? ` network "${h(x.network)}"` : ''
            }${x.plugins?.length ? ` (${h(x.plugins.join(', '))})` : ''}${
              x.note ? ` — ${h(x.note)}` : ''
            }</li>`,
        )
        .join('')}</ol></figure>`;
    case 'cri':
      return `<p><b>CRI</b> <code>${h(e.endpoint)}</code> ${h(e.field)}: <code>${h(
        e.value,
      )}</code></p>`;
    case 'hns':
      return `<p><b>HNS ${h(e.objectType)}</b> <code>${h(e.id)}</code>${
        e.name ? ` "${h(e.name)}"` : ''
      }: ${h(e.detail)}</p>`;
    case 'log': {
      const where = e.tailBytes
        ? `line ${e.line} of the last ${Math.round(e.tailBytes / 1048576)} MiB`
        : `line ${e.line}`;
      return `<figure><figcaption><b>Log</b> <code>${h(e.path)}</code> ${h(where)}${
        e.note ? ` — ${h(e.note)}` : ''
      }</figcaption><pre tabindex="0"><span class="ln hl">${h(e.text)}</span></pre></figure>`;
    }
    case 'process':
      return `<p><b>Process</b> ${h(e.name)}${e.pid !== undefined ? ` (pid ${e.pid})` : ''}: <code>${h(
        e.args.join(' '),
      )}</code></p>`;
    case 'registry':
      return `<p><b>Registry</b> <code>${h(e.key)}</code> ${h(e.value)}${
        e.note ? ` — ${h(e.note)}` : ''
      }: <code>${h(e.data)}</code></p>`;
    case 'path':
      return `<p><b>Path</b> <code>${h(e.path)}</code> ${h(e.state)}${
        e.note ? ` — ${h(e.note)}` : ''
      }</p>`;
    case 'text':
      return `<p>${h(e.text)}</p>`;
  }
}

/** An upstream page as a link; a knowledge page of the repository as its path. */
function reference(ref: string): string {
  return /^https:\/\//.test(ref) ? `<a href="${h(ref)}">${h(ref)}</a>` : h(ref);
}

function finding(f: Finding, report: Report, top: boolean): string {
  const repairs = f.repairs.length
    ? `<h4>Repair</h4><ul>${f.repairs
        .map(
          (r) =>
            `<li>${h(r.title)}${r.needsElevation ? ' (needs root/Administrator)' : ''}: <code>${h(
              fixCommand(r.id, report),
            )}</code> (previews; add <code>--yes</code> to apply)</li>`,
        )
        .join('')}</ul>`
    : '';
  return `<section class="finding sev-${f.severity}" id="${h(encodeURIComponent(f.id))}" aria-labelledby="t-${h(
    encodeURIComponent(f.id),
  )}">
<h3 id="t-${h(encodeURIComponent(f.id))}"><span class="sev">${f.severity}</span> ${h(f.title)}${
    top ? ' <span class="top">most likely cause</span>' : ''
  }</h3>
<p class="meta">Rule <code>${h(f.rule)}</code>${f.runtime ? ` · about ${h(f.runtime)}` : ''}${
    f.kb?.length ? ` · facts: ${f.kb.map(reference).join(', ')}` : ''
  }</p>
<p>${h(f.summary)}</p>
${f.evidence.length ? `<h4>Evidence</h4>${f.evidence.map(evidence).join('\n')}` : ''}
${repairs}
${f.guidance ? `<h4>What to do</h4><p>${h(f.guidance)}</p>` : ''}
</section>`;
}

function checks(cs: CheckResult[]): string {
  const order = { unknown: 0, fail: 1, pass: 2, 'not-applicable': 3 } as const;
  const sorted = [...cs].sort((a, b) => order[a.status] - order[b.status]);
  return `<table><caption>Every check and its status (unknown: the check could not look)</caption>
<thead><tr><th scope="col">Check</th><th scope="col">Status</th><th scope="col">Why</th></tr></thead>
<tbody>${sorted
    .map(
      (c) =>
        `<tr><td><code>${h(c.rule)}</code></td><td class="st-${c.status}">${c.status}</td><td>${h(
          c.reason ?? '',
        )}</td></tr>`,
    )
    .join('')}</tbody></table>`;
}

const STYLE = `
:root{color-scheme:light dark;--bg:light-dark(#fff,#15181c);--text:light-dark(#1b1f24,#e6e9ed);
--muted:light-dark(#555e69,#a9b1bb);--border:light-dark(#d0d5dc,#3a414a);--code:light-dark(#f0f2f5,#262b31);
--hl:light-dark(#fff3b0,#4d4210);--error:light-dark(#a3141c,#ffb4b4);--warning:light-dark(#7a4b00,#ffd38a);
--info:light-dark(#0b4aa8,#a9cbff);--pass:light-dark(#1d6b34,#9fe0b0);--unknown:light-dark(#5b2a9c,#d9c2ff)}
body{margin:0 auto;max-width:70rem;padding:1rem 1.5rem 3rem;background:var(--bg);color:var(--text);
font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,Ubuntu,sans-serif}
a{color:var(--info)}
code,pre{font-family:ui-monospace,'Cascadia Mono','DejaVu Sans Mono',Menlo,monospace;font-size:.9em}
code{background:var(--code);padding:0 .25em;border-radius:3px;overflow-wrap:anywhere}
pre{background:var(--code);border:1px solid var(--border);border-radius:6px;padding:.5rem;overflow-x:auto}
.ln{display:block;white-space:pre}.ln .no{display:inline-block;min-width:3em;color:var(--muted);text-align:right;margin-right:1em}
.ln.hl{background:var(--hl);font-weight:600}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.finding{border:1px solid var(--border);border-left:6px solid var(--border);border-radius:8px;padding:.25rem 1rem;margin:1rem 0}
.sev-error{border-left-color:var(--error)}.sev-warning{border-left-color:var(--warning)}.sev-info{border-left-color:var(--info)}
.sev{text-transform:uppercase;font-size:.8em;letter-spacing:.04em}
.sev-error .sev{color:var(--error)}.sev-warning .sev{color:var(--warning)}.sev-info .sev{color:var(--info)}
.top{font-size:.75em;border:1px solid currentColor;border-radius:999px;padding:0 .5em;color:var(--pass)}
.meta{color:var(--muted)}.role{font-weight:600}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--border);vertical-align:top}
.st-pass{color:var(--pass)}.st-fail{color:var(--error)}.st-unknown{color:var(--unknown)}.st-not-applicable{color:var(--muted)}
.access{border:1px solid var(--warning);border-radius:8px;padding:.25rem 1rem;margin:1rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{color:var(--muted)}dd{margin:0}
`;

/** "Not running as root": before any verdict, as in the CLI and the UI (shared/access-banner.ts). */
function accessSection(a: AccessNote): string {
  const b = accessBanner(a);
  return `<section class="access" aria-label="Could not look"><p><strong>${h(b.headline)}</strong></p><p>${h(
    b.advice,
  )}${b.command ? ` <code>${h(b.command)}</code>` : ''}</p></section>`;
}

/** Whether quoted node text was redacted (main/bundle/redaction/report.ts); said on the page. */
function evidenceRedaction(report: Report): string | undefined {
  const r = report.redaction;
  if (!r) return undefined;
  return r.evidence === 'unredacted'
    ? 'NOT redacted: quoted verbatim, it may hold tokens and passwords'
    : `secrets redacted as in a collected bundle (${r.hidden} value${r.hidden === 1 ? '' : 's'} hidden)`;
}

export function renderReportHtml(report: Report, opts: HtmlReportOptions): string {
  const s = report.summary;
  const top = report.findings.find((f) => f.id === s?.topFindingId);
  const ordered = [
    ...(top ? [top] : []),
    ...(['error', 'warning', 'info'] as const).flatMap((sev) =>
      report.findings.filter((f) => f.severity === sev && f !== top),
    ),
  ];
  const facts: [string, string | undefined][] = [
    ['Target', report.target ? `${report.target.target} (${report.target.transport})` : opts.label],
    ['Node', [report.node.hostname, report.node.os].filter(Boolean).join(', ')],
    ['Scanned', report.scannedAt],
    ['Runtime', s?.runtimes.map((r) => [r.name, r.version].filter(Boolean).join(' ')).join(', ')],
    [
      'CNI in use',
      s?.cniInUse ? `${s.cniInUse.file ?? 'none'} in ${s.cniInUse.confDir}` : undefined,
    ],
    ['CRI answers', report.target?.cri],
    ['Evidence', evidenceRedaction(report)],
  ];
  const title = `cni-doctor report: ${opts.label}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${h(title)}</title>
<style>${STYLE}${PICTURES_STYLE}</style>
</head>
<body>
<header>
<h1>${h(title)}</h1>
<dl>${facts
    .filter((f): f is [string, string] => !!f[1])
    .map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`)
    .join('')}</dl>
</header>
<main>
${report.access ? accessSection(report.access) : ''}
<h2>Most likely cause</h2>
<p>${
    top
      ? `<a href="#${h(encodeURIComponent(top.id))}">${h(top.title)}</a>`
      : 'Nothing found explains a stuck pod sandbox.'
  }</p>
${report.windowsChain ? chainSection(report.windowsChain) : ''}
${lanesSection(report.loadOrder ?? [])}
<h2>Findings (${report.findings.length})</h2>
${ordered.map((f) => finding(f, report, f === top)).join('\n')}
<h2>Checks</h2>
${checks(report.checks)}
</main>
<footer><p class="meta">Written by cni-doctor${opts.version ? ` ${h(opts.version)}` : ''}. Report schema ${h(
    report.schema,
  )}.</p></footer>
</body>
</html>
`;
}
