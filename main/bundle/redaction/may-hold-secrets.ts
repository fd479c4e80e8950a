/**
 * A quick, exact "nothing here can be redacted" for the common case (a CNI config, a kubelet
 * flag file): every rule that hides something needs one of a few words in the text, so a text
 * without any of them is shipped as it is, without parsing its structure (which cost a bundle of
 * 2,000 conflists more than reading them).
 *
 * Why it is exact: a structured value is hidden only under a key that isSecretKey() accepts,
 * and every such key, once normalised (lower case, `-` `_` `.` and white space removed), holds
 * one of WORDS; every line pattern first needs text.ts's HINT, whose words are among WORDS too.
 * The text is normalised the same way as a whole, which can only join more letters together,
 * never split a word. Escapes (`\u0074oken` in JSON, TOML or YAML) could spell a key without
 * its letters, so any backslash makes the answer "may"; so does any character outside ASCII, and
 * a URL holding `@` (a password in a URL needs no key word).
 */
const WORDS = [
  'token',
  'pass',
  'secret',
  'private',
  'key',
  'auth',
  'bearer',
  'credential',
  'psk',
  'sig',
];

/**
 * The words with any run of separators between their letters, in any ASCII case: for ASCII
 * text this is exactly "the normalised text holds a word", without building the normalised
 * copy (a regular expression over the text as it is was five times quicker).
 */
const SPREAD_WORDS = new RegExp(WORDS.map((w) => [...w].join('[-_.\\s]*')).join('|'), 'i');

/**
 * Outside ASCII, toLowerCase() (which isSecretKey uses) maps a few letters onto ASCII ones (the
 * Kelvin sign onto `k`) that a case-insensitive expression does not: any such text is "may".
 */
const MAY_ANYWAY = /[\u0080-\uffff]|\\|:\/\/[^\s/]*@/;

export function mayHoldSecrets(text: string): boolean {
  return MAY_ANYWAY.test(text) || SPREAD_WORDS.test(text);
}
