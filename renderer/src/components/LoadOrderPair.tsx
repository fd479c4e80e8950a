/**
 * One runtime's load order twice, one lane above the other: now and after this repair (preview),
 * then and now (Compare), before and after (a repair's verification). The second lane says what
 * changed for each file, and which files are no longer there.
 */
import type { LoadOrderComparison, LoadOrderRowChange } from '../../../shared/model/compare';
import { LoadOrderLane } from './LoadOrderLane';

export function LoadOrderPair(props: {
  lo: LoadOrderComparison;
  titles: readonly [string, string];
  testId?: string;
}) {
  const { lo, titles } = props;
  const changes = new Map<string, LoadOrderRowChange>(lo.rows.map((r) => [r.name, r.change]));
  const gone = lo.rows.filter((r) => r.change === 'gone').map((r) => r.name);
  return (
    <div className="lane-pair" data-testid={props.testId ?? 'load-order-pair'}>
      {lo.before ? (
        <LoadOrderLane side={lo.before} runtime={lo.label} title={titles[0]} testId="lane-before" />
      ) : (
        <p className="muted">
          {titles[0]}: {lo.label} was not there.
        </p>
      )}
      {lo.after ? (
        <LoadOrderLane
          side={lo.after}
          runtime={lo.label}
          title={titles[1]}
          changes={changes}
          gone={gone}
          testId="lane-after"
        />
      ) : (
        <p className="muted">
          {titles[1]}: {lo.label} is not there.
        </p>
      )}
    </div>
  );
}
