/**
 * The words and marks every door draws the load-order lane and the Windows chain with (the UI,
 * the HTML report, the CLI): a state is always said in text, the colour and the mark only repeat
 * it. Browser-safe and pure.
 */
import type { ConfEntryRole } from './model/finding';
import type { LoadOrderSide } from './model/compare';
import type { ChainLinkState } from './model/pictures';

/** What a file's role means for the user, in a few words. */
export const LANE_STATE: Record<ConfEntryRole, { word: string; mark: string }> = {
  'in-use': { word: 'in use', mark: '★' },
  'valid-unused': { word: 'shadowed', mark: '◐' },
  invalid: { word: 'invalid', mark: '✕' },
  skipped: { word: 'skipped', mark: '↷' },
  'never-read': { word: 'never read', mark: '○' },
  disabled: { word: 'disabled', mark: '⊘' },
  ignored: { word: 'not a config', mark: '·' },
};

export const CHAIN_STATE: Record<ChainLinkState, { word: string; mark: string }> = {
  ok: { word: 'works', mark: '✓' },
  warning: { word: 'warning', mark: '!' },
  broken: { word: 'broken', mark: '✕' },
  unknown: { word: 'could not look', mark: '?' },
};

/**
 * Where the runtime stops reading: the index of the first file it never reads because it stopped
 * (max_conf_num reached, or a fatal invalid file before it), or -1 when it reads them all.
 */
export function stopIndex(side: LoadOrderSide): number {
  return side.entries.findIndex(
    (e) =>
      (e.role === 'never-read' && e.note !== 'unreadable') ||
      / stops before this file$/.test(e.note ?? ''),
  );
}

/** One lane as a sentence: "containerd uses 10-flannel.conflist; 10-calico.conflist is shadowed". */
export function laneSentence(label: string, side: LoadOrderSide): string {
  if (side.note) return `${label}: ${side.note}.`;
  const inUse = side.entries.filter((e) => e.role === 'in-use').map((e) => e.name);
  const rest = side.entries
    .filter((e) => e.role !== 'in-use' && e.role !== 'ignored')
    .map((e) => `${e.name} ${LANE_STATE[e.role].word}`);
  const head =
    inUse.length > 0
      ? `${label} uses ${inUse.join(' and ')}`
      : `${label} uses no config from ${side.confDir}`;
  return `${head}${rest.length ? `; ${rest.join(', ')}` : ''}.`;
}

/** The lane in one line of text (the CLI): `★ a.conflist (in use) | b.conflist (never read)`. */
export function laneLine(side: LoadOrderSide, runtime: string): string {
  if (side.note) return side.note;
  if (side.entries.length === 0) return '(no files)';
  const stop = stopIndex(side);
  return side.entries
    .map(
      (e, i) =>
        `${i === stop ? `‖ ${runtime} stops here ‖ ` : ''}${LANE_STATE[e.role].mark} ${e.name} (${LANE_STATE[e.role].word})`,
    )
    .join('  ');
}
