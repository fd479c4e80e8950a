/**
 * The report's pictures as plain HTML and CSS, for the self-contained HTML report (no script):
 * a conf dir's load order as a lane of files, left to right, and the Windows chain with its
 * broken link. Each picture is an ordered list whose items say their state in words, so the list
 * is its own text alternative; colour and marks only repeat the words, and both print.
 * Every string from the node is escaped here. Browser-safe and pure.
 */
import type { LoadOrderSide } from './model/compare';
import type { LoadOrderLane, WindowsChain } from './model/pictures';
import { escapeHtml as h } from './escape';
import { CHAIN_STATE, LANE_STATE, laneSentence, stopIndex } from './load-order-words';

/** One lane: `title` names it ("now", "after this repair"); `runtime` is who stops reading. */
export function laneHtml(
  side: LoadOrderSide,
  runtime: string,
  title?: string,
  omitted = 0,
): string {
  const stop = stopIndex(side);
  const items = side.entries
    .map((e, i) => {
      const st = LANE_STATE[e.role];
      return `<li class="lf st-${e.role}${i === stop ? ' stop-before' : ''}">${
        i === stop ? `<span class="stop">${h(runtime)} stops here</span>` : ''
      }<span><span class="mk" aria-hidden="true">${st.mark}</span> <code>${h(e.name)}</code> <span class="lw">${h(
        st.word,
      )}</span></span>${e.network ? `<span class="lnote">network "${h(e.network)}"</span>` : ''}${
        e.note && i !== stop ? `<span class="lnote">${h(e.note)}</span>` : ''
      }</li>`;
    })
    .join('');
  const more = omitted > 0 ? `<p class="meta">… and ${omitted} more file(s) not drawn</p>` : '';
  return `<figure class="lane">
<figcaption>${title ? `<b>${h(title)}:</b> ` : ''}${h(laneSentence(runtime, side))}</figcaption>
${side.entries.length ? `<ol class="lane-files" aria-label="${h(`${side.confDir} in load order, first read first`)}">${items}</ol>` : `<p class="meta">${h(side.note ?? `${side.confDir} holds no files`)}</p>`}${more}
</figure>`;
}

export function lanesSection(lanes: readonly LoadOrderLane[]): string {
  if (lanes.length === 0) return '';
  return `<section aria-labelledby="load-order"><h2 id="load-order">Load order</h2>
<p class="meta">Each runtime's CNI conf dir, left to right in the order the runtime reads it.</p>
${lanes
  .map(
    (l) =>
      `<h3>${h(l.label)} <code>${h(l.side.confDir)}</code>${l.usedByKubelet ? '' : ' <span class="meta">(not the kubelet\'s runtime)</span>'}</h3>${laneHtml(l.side, l.label, undefined, l.omitted)}`,
  )
  .join('\n')}
</section>`;
}

export function chainSection(chain: WindowsChain): string {
  const broken = chain.links.find((l) => l.id === chain.brokenAt);
  const items = chain.links
    .map((l) => {
      const st = CHAIN_STATE[l.state];
      const first = l.id === chain.brokenAt;
      return `<li class="cl st-${l.state}${first ? ' first-broken' : ''}"><span><span class="mk" aria-hidden="true">${st.mark}</span> <b>${h(
        l.label,
      )}</b></span>${l.name ? ` <code>${h(l.name)}</code>` : ''} <span class="lw">${h(st.word)}</span>${
        first ? ' <span class="here">pods fail here</span>' : ''
      }<span class="lnote">${h(l.detail)}</span>${
        l.findingId
          ? `<a class="lnote" href="#${h(encodeURIComponent(l.findingId))}">the finding</a>`
          : ''
      }</li>`;
    })
    .join('');
  return `<section aria-labelledby="chain"><h2 id="chain">The Windows chain</h2>
<figure class="chain">
<figcaption>What a pod's network goes through on this node, first to last${
    chain.follows ? `, following <code>${h(chain.follows)}</code>` : ''
  }: ${broken ? `broken first at <b>${h(broken.label)}</b>.` : 'no link is broken.'}</figcaption>
<ol class="chain-links">${items}</ol>
</figure></section>`;
}

/** The pictures' styles, added to the report's own (same custom properties, light and dark). */
export const PICTURES_STYLE = `
.lane,.chain{margin:.5rem 0 1rem}.lane figcaption,.chain figcaption{margin-bottom:.4rem}
.lane-files,.chain-links{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.5rem 1.6rem;align-items:stretch}
.lf,.cl{position:relative;border:2px solid var(--border);border-radius:8px;padding:.3rem .6rem;min-width:9rem;max-width:20rem;display:flex;flex-direction:column;break-inside:avoid}
.lf+.lf::before,.cl+.cl::before{content:'→';position:absolute;left:-1.35rem;top:.3rem;color:var(--muted)}
.lf code,.cl code{overflow-wrap:anywhere}.lw{font-weight:700}.lnote{color:var(--muted);font-size:.85em}
.mk{font-weight:700}
.st-in-use,.cl.st-ok{border-color:var(--pass);border-width:3px}.st-in-use .lw,.st-in-use .mk,.cl.st-ok .lw,.cl.st-ok .mk{color:var(--pass)}
.st-valid-unused,.st-skipped,.cl.st-warning{border-color:var(--warning);border-style:dashed}
.st-valid-unused .lw,.st-skipped .lw,.cl.st-warning .lw,.cl.st-warning .mk{color:var(--warning)}
.st-invalid,.cl.st-broken{border-color:var(--error)}.st-invalid .lw,.st-invalid .mk,.cl.st-broken .lw,.cl.st-broken .mk{color:var(--error)}
.st-never-read{border-style:dotted}.st-disabled code{text-decoration:line-through}
.st-disabled,.st-ignored{border-style:dotted;font-size:.9em}
.cl.st-unknown{border-color:var(--unknown);border-style:dashed}.cl.st-unknown .lw,.cl.st-unknown .mk{color:var(--unknown)}
.stop-before{border-left:6px double var(--text)}
.stop{display:block;font-size:.75em;font-weight:700;color:var(--muted);border-bottom:1px dashed var(--border);margin-bottom:.2rem}
.stop::before{content:'‖ '}
.cl.first-broken{border-width:4px;box-shadow:0 0 0 2px var(--bg),0 0 0 4px var(--error)}
.here{color:var(--error);font-weight:700;text-transform:uppercase;font-size:.8em}
@media print{.lf,.cl{border-color:#000}.st-never-read,.st-disabled,.st-ignored{border-style:dotted}}
`;
