/**
 * A viewer over the current screen: a whole file, a log around a matched line, or the runtime's
 * raw CRI answers — each from the scan the screen shows. Its address keeps it across a reload;
 * Back (or Escape) returns to the finding or screen it was opened from.
 */
import { useEffect, useRef } from 'react';
import type { ScanResponse } from '../../../../shared/api';
import { useView } from '../../state/view-store';
import type { Viewer } from '../../state/viewer-route';
import { CriRawViewer } from './CriRawViewer';
import { FileViewer } from './FileViewer';
import { LogViewer } from './LogViewer';
import '../../styles/viewers.css';

function title(v: Viewer): string {
  if (v.kind === 'file') return v.path;
  if (v.kind === 'log') return `${v.path} around line ${v.line}`;
  return 'Raw CRI answers';
}

export function ViewerPage({ scan, viewer }: { scan: ScanResponse; viewer: Viewer }) {
  const close = useView((v) => v.closeViewer);
  const findingId = useView((v) => v.selectedFindingId);
  const heading = useRef<HTMLHeadingElement>(null);
  const key = JSON.stringify(viewer);
  useEffect(() => heading.current?.focus(), [key]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape' && !e.defaultPrevented && !document.querySelector('dialog[open]')) {
        e.preventDefault();
        close();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [close]);
  const finding = findingId ? scan.report.findings.find((f) => f.id === findingId) : undefined;

  return (
    <section className="viewer" aria-labelledby="viewer-title" data-testid="viewer">
      <div className="viewer-head">
        <button type="button" onClick={close}>
          {finding ? 'Back to the finding' : 'Back'}
        </button>
        {/* The viewer is the page while it is open: its title is the page's one h1 (axe). */}
        <h1
          id="viewer-title"
          tabIndex={-1}
          ref={heading}
          className="viewer-title"
          title={title(viewer)}
        >
          {viewer.kind === 'cri' ? title(viewer) : <code>{title(viewer)}</code>}
        </h1>
      </div>
      {finding && <p className="muted small">Opened from: {finding.title}</p>}
      {viewer.kind === 'file' && (
        <FileViewer
          key={key}
          scan={scan}
          path={viewer.path}
          {...(viewer.line !== undefined && { line: viewer.line })}
          findingId={findingId}
        />
      )}
      {viewer.kind === 'log' && (
        <LogViewer key={key} scan={scan} path={viewer.path} line={viewer.line} />
      )}
      {viewer.kind === 'cri' && (
        <CriRawViewer
          scan={scan}
          {...(viewer.endpoint !== undefined && { endpoint: viewer.endpoint })}
        />
      )}
    </section>
  );
}
