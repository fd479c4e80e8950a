/**
 * When a log line was written, from the line itself: a journald short-iso prefix
 * (`2024-05-02T09:14:07+0000 host unit[pid]:`), logrus / CRI-O `time="2024-05-02T09:21:11.6Z"`,
 * or a klog header (`E0502 09:18:41.113208`, which has no year: the year is the one that puts
 * the line at or before `reference`, the time the logs were read).
 */

const ISO = /\b(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?/;
const KLOG = /^[IWEF](\d{2})(\d{2}) (\d{2}:\d{2}:\d{2})(\.\d+)?\s/;

/** Milliseconds since the epoch, or undefined when the line carries no time it can be sure of. */
export function lineTime(text: string, reference?: number): number | undefined {
  const iso = ISO.exec(text);
  if (iso) {
    const [, date, time, frac = '', zone] = iso;
    // A time without a zone is local to the node, which we do not know: not comparable.
    if (!zone) return undefined;
    const z = zone === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
    const ms = Date.parse(`${date}T${time}${frac.slice(0, 4)}${z}`);
    return Number.isNaN(ms) ? undefined : ms;
  }
  const k = KLOG.exec(text);
  if (k && reference !== undefined) {
    const [, month, day, time, frac = ''] = k;
    // klog prints the node's local time; treat it as UTC only when nothing better exists.
    let year = new Date(reference).getUTCFullYear();
    let ms = Date.parse(`${year}-${month}-${day}T${time}${frac.slice(0, 4)}Z`);
    if (!Number.isNaN(ms) && ms > reference + 86_400_000) {
      year -= 1;
      ms = Date.parse(`${year}-${month}-${day}T${time}${frac.slice(0, 4)}Z`);
    }
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}
