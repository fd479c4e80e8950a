/** A unified diff with added and removed lines marked by sign and colour. */
import { classifyDiff } from '../../lib/diff-lines';

export function DiffView({ path, diff }: { path: string; diff: string }) {
  return (
    <figure className="diff">
      <figcaption>
        <code>{path}</code>
      </figcaption>
      <pre aria-label={`Changes to ${path}`}>
        {classifyDiff(diff).map((l, i) => (
          <span key={i} className={`dl dl-${l.kind}`}>
            {l.text}
            {'\n'}
          </span>
        ))}
      </pre>
    </figure>
  );
}
