/**
 * The Windows chain a pod's network goes through (report.windowsChain, computed by the engine):
 * kubelet → containerd (pipe) → CNI config → plugin → cnisock → agent → HNS network → endpoints,
 * each link with its state in words and a mark, the first broken one marked "pods fail here".
 * An ordered list, so it is its own text alternative.
 */
import type { WindowsChain as Chain } from '../../../shared/model/pictures';
import { CHAIN_STATE } from '../../../shared/load-order-words';
import { useView } from '../state/view-store';
import '../styles/pictures.css';

export function WindowsChain({ chain }: { chain: Chain }) {
  const openFinding = useView((v) => v.openFinding);
  const broken = chain.links.find((l) => l.id === chain.brokenAt);
  return (
    <section className="card" aria-labelledby="chain-title" data-testid="windows-chain">
      <h2 id="chain-title">The Windows chain</h2>
      <figure className="chain">
        <figcaption>
          What a pod's network goes through on this node, first to last
          {chain.follows && (
            <>
              , following <code>{chain.follows}</code>
            </>
          )}
          :{' '}
          {broken ? (
            <>
              broken first at <strong>{broken.label}</strong>.
            </>
          ) : (
            'no link is broken.'
          )}
        </figcaption>
        <ol className="chain-links" aria-label="The chain, first link first">
          {chain.links.map((l) => {
            const st = CHAIN_STATE[l.state];
            const first = l.id === chain.brokenAt;
            return (
              <li
                key={l.id}
                className={`cl st-${l.state}${first ? ' first-broken' : ''}`}
                data-link={l.id}
                data-state={l.state}
              >
                <span>
                  <span className="mk" aria-hidden="true">
                    {st.mark}
                  </span>{' '}
                  <strong>{l.label}</strong>
                </span>
                {l.name && <code>{l.name}</code>}
                <span>
                  <span className="lw">{st.word}</span>
                  {first && <span className="here"> · pods fail here</span>}
                </span>
                <span className="lnote">{l.detail}</span>
                {l.findingId && (
                  <button
                    type="button"
                    className="link lnote"
                    aria-label={`Show the finding about the ${l.label}`}
                    onClick={() => openFinding(l.findingId!)}
                  >
                    Show the finding
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      </figure>
    </section>
  );
}
