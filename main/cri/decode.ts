// Turns the plain objects CRI answers decode to (proto/load.ts; typed `object`) into our typed
// shapes without trusting them: a field of the wrong type becomes its empty value instead of
// leaking through.
import type { CriCondition, CriPodSandboxStatus, CriSandbox, CriStatus, CriVersion } from './types';

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}
function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}
function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
function strMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(obj(v))) if (typeof val === 'string') out[k] = val;
  return out;
}

export function decodeVersion(v: object): CriVersion {
  const o = obj(v);
  return {
    version: str(o.version),
    runtimeName: str(o.runtimeName),
    runtimeVersion: str(o.runtimeVersion),
    runtimeApiVersion: str(o.runtimeApiVersion),
  };
}

export function decodeStatus(v: object): CriStatus {
  const o = obj(v);
  const conditions: CriCondition[] = list(obj(o.status).conditions).map((c) => {
    const co = obj(c);
    return {
      type: str(co.type),
      status: co.status === true,
      reason: str(co.reason),
      message: str(co.message),
    };
  });
  return { conditions, info: strMap(o.info) };
}

/** CRI timestamps are int64 nanoseconds since the epoch, delivered as decimal strings. */
export function nanosToIso(v: unknown): string {
  const s = str(v);
  if (!/^\d+$/.test(s)) return '';
  const ms = BigInt(s) / 1_000_000n;
  if (ms === 0n || ms > 8_640_000_000_000_000n) return '';
  return new Date(Number(ms)).toISOString();
}

function decodeSandboxCommon(o: Obj): CriSandbox {
  const meta = obj(o.metadata);
  return {
    id: str(o.id),
    name: str(meta.name),
    namespace: str(meta.namespace),
    state: str(o.state),
    createdAt: nanosToIso(o.createdAt),
  };
}

export function decodeSandboxList(v: object): CriSandbox[] {
  return list(obj(v).items).map((item) => decodeSandboxCommon(obj(item)));
}

export function decodePodSandboxStatus(v: object): CriPodSandboxStatus {
  const status = obj(obj(v).status);
  const network = obj(status.network);
  return {
    ...decodeSandboxCommon(status),
    ip: str(network.ip),
    additionalIps: list(network.additionalIps)
      .map((a) => str(obj(a).ip))
      .filter((ip) => ip !== ''),
  };
}

export function decodeRunPodSandbox(v: object): string {
  return str(obj(v).podSandboxId);
}
