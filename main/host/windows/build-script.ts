/**
 * Builds the exact collection script text: one line that defines `$in` from base64 JSON, then
 * collect.ps1 unchanged. Caller-chosen values (paths, names, limits) exist in the text only
 * inside that single-quoted base64 literal; the base64 alphabet has no quote, so no value can end
 * the literal and become code (docs/knowledge/windows-node.md#node-powershell: node-powershell's own interpolation does not escape).
 * The session then sends this text as one base64 line (shell-command.ts).
 */
import { validateCollectInput, type CollectInput } from './collect-input';
import { COLLECT_PS1 } from './scripts/collect-ps1';

export const PAYLOAD_LINE_PREFIX =
  "$in = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('";
export const PAYLOAD_LINE_SUFFIX = "')) | ConvertFrom-Json";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const TEMPLATE_MARK = '# cni-doctor: one read-only collection pass';

/** collect.ps1's text, embedded at build time so bundles need no loose script file. */
export function collectTemplate(): string {
  return COLLECT_PS1;
}

export function encodePayload(input: CollectInput): string {
  const b64 = Buffer.from(JSON.stringify(input), 'utf8').toString('base64');
  if (!BASE64.test(b64)) throw new Error('base64 encoding produced an unexpected character');
  return b64;
}

export function buildCollectScript(template: string, input: CollectInput): string {
  const problems = validateCollectInput(input);
  if (problems.length > 0) throw new Error(`collection input refused: ${problems.join('; ')}`);
  const body = template.charCodeAt(0) === 0xfeff ? template.slice(1) : template;
  // The template must be collect.ps1 itself, not something that already defines $in.
  if (!body.startsWith(TEMPLATE_MARK)) throw new Error('not the collect.ps1 template');
  return `${PAYLOAD_LINE_PREFIX}${encodePayload(input)}${PAYLOAD_LINE_SUFFIX}\n${body.replace(/\r\n/g, '\n')}`;
}
