/** Findings grouped by area, filterable by severity and text; muted ones hidden unless asked. */
import { useMemo } from 'react';
import type { ScanResponse } from '../../../shared/api';
import type { Severity } from '../../../shared/model/finding';
import { SeverityBadge } from '../components/Badges';
import { filterFindings, groupByArea } from '../lib/findings';
import { useRules } from '../queries/use-doctor';
import { usePrefs } from '../state/prefs-store';
import { useView } from '../state/view-store';

export function Findings({ scan }: { scan: ScanResponse }) {
  const v = useView();
  const muted = usePrefs((s) => s.muted);
  const toggleMute = usePrefs((s) => s.toggleMute);
  const rules = useRules();
  const ruleMap = useMemo(() => new Map((rules.data ?? []).map((r) => [r.id, r])), [rules.data]);
  const { shown, mutedHidden } = filterFindings(scan.report.findings, {
    severities: v.severities,
    text: v.text,
    muted,
    showMuted: v.showMuted,
  });
  const groups = groupByArea(shown, ruleMap);
  const total = scan.report.findings.length;

  return (
    <div className="screen findings">
      <h1>Findings</h1>
      <div className="filters" role="group" aria-label="Filter findings">
        {(['error', 'warning', 'info'] as Severity[]).map((s) => (
          <label key={s} className="check">
            <input type="checkbox" checked={v.severities[s]} onChange={() => v.toggleSeverity(s)} />{' '}
            <SeverityBadge severity={s} />
          </label>
        ))}
        <input
          type="search"
          aria-label="Search findings"
          placeholder="Search title, rule, summary"
          value={v.text}
          onChange={(e) => v.setText(e.target.value)}
        />
        <label className="check">
          <input
            type="checkbox"
            checked={v.showMuted}
            onChange={(e) => v.setShowMuted(e.target.checked)}
          />{' '}
          Show muted ({muted.filter((m) => scan.report.findings.some((f) => f.id === m)).length})
        </label>
      </div>

      <p className="muted" aria-live="polite">
        {total === 0
          ? 'No findings on this node.'
          : `Showing ${shown.length} of ${total}${mutedHidden ? `, ${mutedHidden} muted hidden` : ''}.`}
      </p>

      {groups.map((g) => (
        <section key={g.area} aria-labelledby={`area-${g.area}`} className="group">
          <h2 id={`area-${g.area}`}>{g.label}</h2>
          <ul className="finding-list">
            {g.findings.map((f) => {
              const isMuted = muted.includes(f.id);
              return (
                <li key={f.id} className={isMuted ? 'finding muted-row' : 'finding'}>
                  <button
                    type="button"
                    className="finding-open"
                    onClick={() => v.openFinding(f.id)}
                    data-finding-id={f.id}
                  >
                    <SeverityBadge severity={f.severity} />
                    <span className="finding-title">{f.title}</span>
                    <code className="rule-id">{f.rule}</code>
                    {f.repairs.length > 0 ? (
                      <span className="tag">repair</span>
                    ) : (
                      <span className="tag ghost">guidance</span>
                    )}
                  </button>
                  <button
                    type="button"
                    className="link"
                    onClick={() => toggleMute(f.id)}
                    aria-label={`${isMuted ? 'Unmute' : 'Mute'} ${f.title}`}
                  >
                    {isMuted ? 'Unmute' : 'Mute'}
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
