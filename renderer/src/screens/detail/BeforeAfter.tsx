/**
 * The verification rescan against the scan the repair was planned from, as the journal kept it:
 * the findings that went away, stayed or appeared, and each runtime's conf dir load order before
 * and after (newcomer review 1.7: "verified" used to say nothing about what the rescan saw).
 */
import type { RescanDiff } from '../../../../shared/api-repair';
import type { FindingBrief, LoadOrderComparison } from '../../../../shared/model/compare';
import { SeverityBadge } from '../../components/Badges';
import '../../styles/repair.css';

function Findings({
  title,
  items,
  empty,
}: {
  title: string;
  items: FindingBrief[];
  empty: string;
}) {
  return (
    <div className="ba-findings" aria-label={`${title}: ${items.length}`} role="group">
      <h5>
        {title} ({items.length})
      </h5>
      {items.length === 0 ? (
        <p className="muted small">{empty}</p>
      ) : (
        <ul>
          {items.map((f) => (
            <li key={f.id}>
              <SeverityBadge severity={f.severity} /> {f.title}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const place = (p: { position: number; role: string } | undefined): string =>
  p ? `${p.position}. ${p.role}` : '—';

function LoadOrder({ lo }: { lo: LoadOrderComparison }) {
  return (
    <figure className="ba-load" aria-label={`Load order of ${lo.label}, before and after`}>
      <figcaption>
        {lo.label}: {lo.after?.confDir ?? lo.before?.confDir}
        {' — '}
        {lo.inUseBefore === lo.inUseAfter ? (
          <>in use before and after: {lo.inUseAfter ?? 'none'}</>
        ) : (
          <span data-testid="ba-in-use">
            in use: <code>{lo.inUseBefore ?? 'none'}</code> before,{' '}
            <code>{lo.inUseAfter ?? 'none'}</code> after
          </span>
        )}
      </figcaption>
      <table className="plain load-order">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {lo.rows.map((r) => (
            <tr key={r.name} className={r.change === 'same' ? '' : `lo-${r.change}`}>
              <th scope="row">
                <code>{r.name}</code>
              </th>
              <td>{place(r.before)}</td>
              <td>{place(r.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

export function BeforeAfter({ rescan }: { rescan: RescanDiff }) {
  return (
    <section
      className="before-after"
      aria-label="Before / after the repair"
      data-testid="before-after"
    >
      <h4>Before / after: what the verification rescan saw</h4>
      <div className="ba-grid">
        <Findings title="Went away" items={rescan.gone} empty="No finding went away." />
        <Findings title="Stayed" items={rescan.stayed} empty="No finding stayed." />
        <Findings title="Appeared" items={rescan.appeared} empty="Nothing new appeared." />
      </div>
      {rescan.loadOrder.map((lo) => (
        <LoadOrder key={lo.runtime} lo={lo} />
      ))}
    </section>
  );
}
