/**
 * "Export report": the open scan as one self-contained HTML file (the same page `scan --html`
 * writes), downloaded in the browser and saved through the download prompt in the desktop app.
 */
import type { ScanResponse } from '../../../shared/api';
import { renderReportHtml } from '../../../shared/report-html';

function fileName(scan: ScanResponse): string {
  const base = (scan.report.node.hostname ?? scan.label).replace(/[^A-Za-z0-9._-]+/g, '-');
  const when = (scan.report.scannedAt ?? new Date().toISOString()).slice(0, 19).replace(/:/g, '');
  return `cni-doctor-report-${base.slice(0, 60) || 'node'}-${when}.html`;
}

export function ExportReport({ scan }: { scan: ScanResponse }) {
  const save = (): void => {
    const html = renderReportHtml(scan.report, { label: scan.label });
    const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName(scan);
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <button
      type="button"
      onClick={save}
      title={`Save the report of ${scan.label} as one HTML file`}
    >
      Export report
    </button>
  );
}
