/**
 * The Windows PowerShell 5.1 reference set (fixtures/ps51-compat, provenance in its README): the
 * 5.1 command tables of Server 2019 and 2022 (plus PowerShell 7.6's for text that only pwsh runs),
 * the type accelerators, and every public .NET Framework 4.7.2 / 4.8 and System.Management.Automation
 * 5.1 type with its members. Loaded once per test process.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

/** [kind C|M|P|F|E, static 0|1, name, type, parameter types, params-array flag, optional count]. */
export type Member = [string, number, string, string | null, string[]?, number?, number?];
export interface TypeInfo {
  asm: string;
  kind: string;
  base?: string | null;
  ifaces?: string[];
  members: Member[];
}
export interface CommandInfo {
  module: string;
  params: Record<string, string[]>;
}
export type Profile = 'ws2019-ps5.1' | 'ws2022-ps5.1' | 'docs-7.6';

export interface Ps51Data {
  commands: Record<Profile, Record<string, CommandInfo>>;
  accelerators: Record<string, string>;
  /** Both .NET Framework sets (a type or member must be in each) and SMA 5.1. */
  netfx: Record<string, TypeInfo>[];
  sma: Record<string, TypeInfo>;
}

const DIR = fileURLToPath(new URL('../../../../../fixtures/ps51-compat/', import.meta.url));

function load<T>(file: string): T {
  return JSON.parse(gunzipSync(readFileSync(DIR + file)).toString('utf8')) as T;
}

let cached: Ps51Data | undefined;

export function ps51Data(): Ps51Data {
  if (cached) return cached;
  const c = load<{
    profiles: Record<Profile, Record<string, CommandInfo>>;
    accelerators: Record<string, Record<string, string>>;
  }>('commands.json.gz');
  const lower: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.accelerators['ps5.1'] ?? {})) lower[k.toLowerCase()] = v;
  cached = {
    commands: c.profiles,
    accelerators: lower,
    netfx: [
      load<{ types: Record<string, TypeInfo> }>('netfx472.json.gz').types,
      load<{ types: Record<string, TypeInfo> }>('netfx48.json.gz').types,
    ],
    sma: load<{ types: Record<string, TypeInfo> }>('sma-5.1-psstandard.json.gz').types,
  };
  return cached;
}

/** Assemblies Windows PowerShell 5.1 does not load by default (their types need Add-Type -AssemblyName). */
export const NOT_LOADED = new Set([
  'System.Web',
  'System.Web.Extensions',
  'System.Net.Http',
  'System.IO.Compression',
  'System.IO.Compression.FileSystem',
  'System.Security',
  'Microsoft.CSharp',
  'System.Runtime.Serialization',
  'System.Xml.Linq',
]);
