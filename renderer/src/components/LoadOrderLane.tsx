/**
 * A CNI conf dir's load order as a lane: the files left to right in the order the runtime reads
 * them, each with its state in words (in use, shadowed, invalid, never read …) and a mark, and
 * where the runtime stops reading. The lane is an ordered list, so it is its own text
 * alternative; the caption says the outcome in one sentence. Drawn the same way in the HTML
 * report (shared/pictures-html.ts) from the same words (shared/load-order-words.ts).
 */
import type { LoadOrderRowChange, LoadOrderSide } from '../../../shared/model/compare';
import { LANE_STATE, laneSentence, stopIndex } from '../../../shared/load-order-words';
import '../styles/pictures.css';

const CHANGE_WORD: Partial<Record<LoadOrderRowChange, string>> = {
  added: 'new here',
  moved: 'moved',
  role: 'changes',
};

export function LoadOrderLane(props: {
  side: LoadOrderSide;
  /** Who reads the folder: "containerd", "CRI-O". */
  runtime: string;
  /** "Now", "After this repair", "Then". */
  title?: string;
  omitted?: number;
  /** What changed for each file against the other lane it is shown with. */
  changes?: ReadonlyMap<string, LoadOrderRowChange>;
  /** Files of the other lane that are not in this one. */
  gone?: readonly string[];
  testId?: string;
}) {
  const { side, runtime } = props;
  const stop = stopIndex(side);
  return (
    <figure className="lane" data-testid={props.testId ?? 'load-order-lane'}>
      <figcaption>
        {props.title && <strong>{props.title}: </strong>}
        {laneSentence(runtime, side)}
      </figcaption>
      {side.entries.length === 0 ? (
        <p className="muted">{side.note ?? `${side.confDir} holds no files`}</p>
      ) : (
        <ol
          className="lane-files"
          aria-label={`${props.title ? `${props.title}: ` : ''}${side.confDir} in load order, first read first`}
        >
          {side.entries.map((e, i) => {
            const st = LANE_STATE[e.role];
            const change = props.changes?.get(e.name);
            return (
              <li
                key={e.name}
                className={`lf st-${e.role}${i === stop ? ' stop-before' : ''}`}
                data-state={e.role}
              >
                {i === stop && <span className="stop">{runtime} stops here</span>}
                <span>
                  <span className="mk" aria-hidden="true">
                    {st.mark}
                  </span>{' '}
                  <code>{e.name}</code> <span className="lw">{st.word}</span>
                </span>
                {change && CHANGE_WORD[change] && (
                  <span className="lchange">{CHANGE_WORD[change]}</span>
                )}
                {e.network && <span className="lnote">network "{e.network}"</span>}
                {e.note && i !== stop && <span className="lnote">{e.note}</span>}
              </li>
            );
          })}
        </ol>
      )}
      {props.gone && props.gone.length > 0 && (
        <p className="muted small">No longer there: {props.gone.join(', ')}</p>
      )}
      {props.omitted ? (
        <p className="muted small">… and {props.omitted} more file(s) not drawn</p>
      ) : null}
    </figure>
  );
}
