/**
 * PowerShell's language mode on the node, asked before anything else is sent. A node with
 * AppLocker or WDAC script enforcement runs PowerShell in ConstrainedLanguage: Add-Type, most .NET
 * types ([Console], [Convert], [Text.Encoding], [ScriptBlock]) and method calls on them are refused
 * (PowerShell-Docs reference/5.1 about_Language_Modes). Every line cni-doctor sends uses them (the
 * one-line transport of shell-command.ts, node-powershell's own output framing, the collection and
 * repair scripts), so on such a node nothing can run, and without this probe the user would see
 * unrelated errors or a timeout. Reading `$ExecutionContext.SessionState.LanguageMode` is allowed
 * in every mode but NoLanguage, so the probe is that one expression, sent as plain text.
 */

/** The probe: one expression that prints `cni-doctor-language=<mode>`. */
export const LANGUAGE_PROBE =
  "'cni-doctor-language=' + $ExecutionContext.SessionState.LanguageMode";

const MODES = ['FullLanguage', 'ConstrainedLanguage', 'RestrictedLanguage', 'NoLanguage'] as const;
export type LanguageMode = (typeof MODES)[number];

/** The mode the probe printed, if it printed one. */
export function languageModeFrom(stdout: string): LanguageMode | undefined {
  const m = /cni-doctor-language=(\w+)/.exec(stdout);
  const mode = m?.[1];
  return MODES.find((x) => x === mode);
}

/** The one clear reason given when the node's PowerShell is not in FullLanguage mode. */
export function languageModeRefusal(mode: string, where: string): string {
  return (
    `${where} runs PowerShell in ${mode} mode (AppLocker or WDAC script enforcement, or a ` +
    'restricted endpoint), so cni-doctor cannot run anything there: its scripts need FullLanguage ' +
    '(Add-Type for the HNS and named-pipe calls, [Convert]/[Text.Encoding] for their data). ' +
    'Nothing was run. Ask the node administrator for an allow rule for the scan, or take a ' +
    'support bundle another way.'
  );
}
