/**
 * Text meant for a terminal shows node-supplied control characters instead of sending them:
 * the CLI's door to the one escaping function (shared/visible-text.ts).
 */
export { visible, visibleDeep, visibleLines } from '../../shared/visible-text';
