/**
 * Two scans side by side: before and after a repair, two bundles, a bundle and the live node.
 * Each side is a scan the engine still holds, or a source scanned for the comparison (without
 * becoming what the other screens show). The engine compares (main/compare/); this only shows it.
 */
import { useEffect, useId } from 'react';
import type { HeldScan, ScanResponse } from '../../../shared/api';
import type { CompareSide } from '../../../shared/api-compare';
import type {
  ChangedFinding,
  FindingBrief,
  FindingChange,
  LoadOrderComparison,
  ScanComparison,
} from '../../../shared/model/compare';
import { parseSourceKey, sourceKey } from '../../../shared/source-key';
import { SeverityBadge, StatusBadge } from '../components/Badges';
import { ErrorNotice } from '../components/ErrorNotice';
import { LoadOrderPair } from '../components/LoadOrderPair';
import { useCompare, useHeldScans } from '../queries/use-compare';
import { useBundles, useCurrentSource, useDemos, useTargets } from '../queries/use-doctor';
import { useComparePicks, type SidePick } from '../state/compare-store';
import '../styles/compare.css';

const time = (iso: string | undefined): string =>
  iso ? new Date(iso).toLocaleTimeString([], { hour12: false }) : '';

function toSide(pick: SidePick): CompareSide | null {
  if (pick.startsWith('scan:')) return { scanId: pick.slice(5) };
  return pick.startsWith('src:') ? parseSourceKey(pick.slice(4)) : null;
}

function heldLabel(h: HeldScan): string {
  return `${h.label} — scanned ${time(h.scannedAt)}, ${h.findings} finding${h.findings === 1 ? '' : 's'}${h.current ? ' (shown now)' : ''}`;
}

function SidePicker(props: {
  label: string;
  value: SidePick | null;
  onChange: (p: SidePick | null) => void;
  held: HeldScan[];
}) {
  const id = useId();
  const demos = useDemos();
  const bundles = useBundles();
  // Compare scans a node itself (newcomer review 2.2): the node shown now, and every node this
  // machine reaches (the Targets screen's list, asked for once and shared with it).
  const targets = useTargets().data;
  const source = useCurrentSource();
  const shownTarget =
    source?.source === 'target' && !targets?.targets.some((t) => t.targetId === source.targetId)
      ? source
      : undefined;
  const chosen = props.held.find((h) => `scan:${h.scanId}` === props.value);
  return (
    <div className="compare-pick">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        value={props.value ?? ''}
        // The whole choice, where the field is too narrow to show it.
        title={chosen ? heldLabel(chosen) : undefined}
        onChange={(e) => props.onChange(e.target.value || null)}
      >
        <option value="">Choose a scan…</option>
        <optgroup label="Scans held now">
          {props.held.map((h) => (
            <option key={h.scanId} value={`scan:${h.scanId}`}>
              {heldLabel(h)}
            </option>
          ))}
        </optgroup>
        <optgroup label="Scan for this comparison">
          <option value="src:live">the live node, now</option>
          {shownTarget && (
            <option value={`src:${sourceKey(shownTarget)}`}>
              the node shown now, scanned again
            </option>
          )}
          {demos.data?.map((d) => (
            <option key={d.id} value={`src:${sourceKey({ source: 'demo', demoId: d.id })}`}>
              demo: {d.title}
            </option>
          ))}
          {targets?.targets.map((t) => (
            <option
              key={t.targetId}
              value={`src:${sourceKey({ source: 'target', targetId: t.targetId })}`}
            >
              node: {t.target}
            </option>
          ))}
          {bundles.data?.map((b) => (
            <option
              key={b.bundleId}
              value={`src:${sourceKey({ source: 'bundle', bundleId: b.bundleId })}`}
            >
              bundle: {b.name}
            </option>
          ))}
        </optgroup>
      </select>
    </div>
  );
}

function Brief({ f }: { f: FindingBrief }) {
  return (
    <>
      <SeverityBadge severity={f.severity} /> <span className="compare-title">{f.title}</span>{' '}
      <code className="rule-id small">{f.id}</code>
    </>
  );
}

function FindingList({ items, empty }: { items: FindingBrief[]; empty: string }) {
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="compare-list">
      {items.map((f) => (
        <li key={f.id}>
          <Brief f={f} />
        </li>
      ))}
    </ul>
  );
}

function Change({ c }: { c: FindingChange }) {
  switch (c.field) {
    case 'severity':
      return (
        <li>
          Severity: <SeverityBadge severity={c.before} /> → <SeverityBadge severity={c.after} />
        </li>
      );
    case 'title':
    case 'summary':
      return (
        <li>
          {c.field === 'title' ? 'Title' : 'Summary'} was: <q>{c.before}</q>
        </li>
      );
    case 'repairs':
      return (
        <li>
          Repairs: {c.added.length > 0 && <>now offers {c.added.join(', ')}. </>}
          {c.removed.length > 0 && <>no longer offers {c.removed.join(', ')}.</>}
        </li>
      );
    case 'evidence':
      return (
        <li>
          Evidence: {c.addedCount} new, {c.removedCount} no longer there
          <ul className="evidence-delta">
            {c.added.map((l, i) => (
              <li key={`a${i}`} className="delta-add">
                <span className="sr-only">new: </span>+ {l}
              </li>
            ))}
            {c.addedCount > c.added.length && (
              <li className="muted">… {c.addedCount - c.added.length} more new</li>
            )}
            {c.removed.map((l, i) => (
              <li key={`r${i}`} className="delta-del">
                <span className="sr-only">no longer: </span>− {l}
              </li>
            ))}
            {c.removedCount > c.removed.length && (
              <li className="muted">… {c.removedCount - c.removed.length} more gone</li>
            )}
          </ul>
        </li>
      );
  }
}

function ChangedList({ items }: { items: ChangedFinding[] }) {
  if (items.length === 0) return <p className="muted">No finding of both scans changed.</p>;
  return (
    <ul className="compare-list">
      {items.map((c) => (
        <li key={c.after.id}>
          <Brief f={c.after} />
          <ul className="changes">
            {c.changes.map((x, i) => (
              <Change key={i} c={x} />
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

const CHANGE_WORD = { added: 'new', gone: 'gone', moved: 'moved', role: 'role changed', same: '' };

function LoadOrder({ lo }: { lo: LoadOrderComparison }) {
  const dirs = [...new Set([lo.before?.confDir, lo.after?.confDir].filter(Boolean))].join(' → ');
  return (
    <section className="card" aria-label={`Load order of ${lo.label}`}>
      <h3>
        {lo.label} <code className="small">{dirs}</code>
      </h3>
      <p data-testid="in-use">
        {lo.inUseBefore === lo.inUseAfter ? (
          <>In use then and now: {lo.inUseAfter ?? 'none'}</>
        ) : (
          <>
            In use: <code>{lo.inUseBefore ?? 'none'}</code> then,{' '}
            <code>{lo.inUseAfter ?? 'none'}</code> now
          </>
        )}
      </p>
      {lo.before?.note && <p className="unknown-note">Then: {lo.before.note}</p>}
      {lo.after?.note && <p className="unknown-note">Now: {lo.after.note}</p>}
      <LoadOrderPair lo={lo} titles={['Then', 'Now']} />
      <div className="compare-table-wrap">
        <table className="plain load-order">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Then</th>
              <th scope="col">Now</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {lo.rows.map((r) => (
              <tr key={r.name} className={r.change === 'same' ? '' : `lo-${r.change}`}>
                <th scope="row">
                  <code>{r.name}</code>
                </th>
                <td>{r.before ? `${r.before.position}. ${r.before.role}` : '—'}</td>
                <td>{r.after ? `${r.after.position}. ${r.after.role}` : '—'}</td>
                <td>{CHANGE_WORD[r.change]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Result({ c }: { c: ScanComparison }) {
  return (
    <div data-testid="comparison">
      <p className="compare-sides">
        <span>
          Before: <strong>{c.before.label}</strong> {time(c.before.scannedAt)}
        </span>
        <span>
          After: <strong>{c.after.label}</strong> {time(c.after.scannedAt)}
        </span>
      </p>
      <ul className="counts" aria-label="What changed">
        <li>{c.added.length} added</li>
        <li>{c.gone.length} gone</li>
        <li>{c.changed.length} changed</li>
        <li>{c.unchanged} the same</li>
      </ul>
      <section aria-labelledby="cmp-load">
        <h2 id="cmp-load">The conf dir's load order, then and now</h2>
        {c.loadOrder.length === 0 && (
          <p className="muted">Neither scan found containerd or CRI-O, so no load order to show.</p>
        )}
        {c.loadOrder.map((lo) => (
          <LoadOrder key={lo.runtime} lo={lo} />
        ))}
      </section>
      <section aria-labelledby="cmp-added">
        <h2 id="cmp-added">Added — only in the newer scan</h2>
        <FindingList items={c.added} empty="Nothing new." />
      </section>
      <section aria-labelledby="cmp-gone">
        <h2 id="cmp-gone">Gone — only in the older scan</h2>
        <FindingList items={c.gone} empty="Nothing went away." />
      </section>
      <section aria-labelledby="cmp-changed">
        <h2 id="cmp-changed">Changed</h2>
        <ChangedList items={c.changed} />
      </section>
      {c.checks.length > 0 && (
        <section aria-labelledby="cmp-checks">
          <h2 id="cmp-checks">Checks whose result changed</h2>
          <div className="compare-table-wrap">
            <table className="plain">
              <thead>
                <tr>
                  <th scope="col">Check</th>
                  <th scope="col">Then</th>
                  <th scope="col">Now</th>
                </tr>
              </thead>
              <tbody>
                {c.checks.map((x) => (
                  <tr key={x.rule}>
                    <th scope="row">
                      <code>{x.rule}</code>
                    </th>
                    <td>{x.before === 'absent' ? 'not run' : <StatusBadge status={x.before} />}</td>
                    <td>{x.after === 'absent' ? 'not run' : <StatusBadge status={x.after} />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}

export function Compare({ scan }: { scan: ScanResponse | undefined }) {
  const held = useHeldScans();
  const picks = useComparePicks();
  const compare = useCompare();
  const list = held.data ?? [];

  // Each time another scan is shown: it is "after", and an earlier scan of the same source (before
  // a repair, before a change Watch saw) is "before".
  useEffect(() => {
    if (!scan || !held.data) return;
    const s = useComparePicks.getState();
    if (s.defaultedFor === scan.scanId) return;
    const earlier = held.data.find(
      (h) => h.scanId !== scan.scanId && sourceKey(h.request) === sourceKey(scan.request),
    );
    s.defaultTo(scan.scanId, earlier?.scanId);
  }, [scan, held.data]);

  const before = picks.before ? toSide(picks.before) : null;
  const after = picks.after ? toSide(picks.after) : null;
  // "Compare before / after" from a repair's outcome: one click shows the comparison.
  const { mutate } = compare;
  useEffect(() => {
    if (!picks.pendingRun) return;
    picks.ranPending();
    if (before && after) mutate({ before, after });
  }, [picks, before, after, mutate]);
  return (
    <div className="screen compare">
      <h1>Compare</h1>
      <p>
        Two scans side by side — before and after a repair, two bundles, two nodes: which findings
        appeared, went away or changed, and how each runtime's conf dir loads then and now.
      </p>
      <form
        className="card compare-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (before && after) compare.mutate({ before, after });
        }}
      >
        <SidePicker label="Before" value={picks.before} onChange={picks.setBefore} held={list} />
        <SidePicker label="After" value={picks.after} onChange={picks.setAfter} held={list} />
        <button type="submit" className="primary" disabled={!before || !after || compare.isPending}>
          Show the differences
        </button>
      </form>
      {held.error && <ErrorNotice error={held.error} retry={() => void held.refetch()} />}
      {compare.isPending && <p role="status">Comparing…</p>}
      {compare.error && <ErrorNotice error={compare.error} />}
      {compare.data && !compare.isPending && <Result c={compare.data.comparison} />}
    </div>
  );
}
