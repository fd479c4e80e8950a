// Turns a CRI endpoint as kubelet/crictl spell it into a @grpc/grpc-js target.
//
// Windows named pipes: grpc-js has no `npipe` scheme, but its `unix:` resolver hands the path
// straight to Node's `net.connect({ path })` (grpc-js build/src/resolver-uds.js + transport.js
// `tcpConnect`), and on Windows Node opens a named pipe for any path under `\\.\pipe\`
// (https://nodejs.org/api/net.html#identifying-paths-for-ipc-connections). The grpc-js maintainer
// says the same in https://github.com/grpc/grpc-node/issues/2857 ("Node does not support UDS on
// Windows. Instead it attempts to make a named pipe connection"), and docker's node-sdk dials
// `unix:////./pipe/dockerCliApi` with grpc-js. So `npipe:////./pipe/<name>` becomes
// `unix:\\.\pipe\<name>` (backslash form, the one Node documents). The parser keeps a target
// without `//` authority as the path verbatim, so backslashes survive.
// Caveat: reports of end-to-end success vary — in grpc-node#2099 and #2649 the pipe connected
// but the exchange stalled (csi-proxy / a grpc-js pipe server). This was not run on Windows here;
// if a runtime on a pipe never answers, the probe reports DEADLINE_EXCEEDED instead of hanging.
import { isAbsolute } from 'node:path';

export type DialTarget =
  | { ok: true; kind: 'unix' | 'npipe' | 'tcp'; target: string; address: string }
  | { ok: false; code: number; message: string };

const INVALID_ARGUMENT = 3;
const UNAVAILABLE = 14;

export function toDialTarget(
  endpoint: string,
  platform: NodeJS.Platform = process.platform,
): DialTarget {
  const e = endpoint.trim();
  const lower = e.toLowerCase();
  if (lower.startsWith('npipe:')) return namedPipe(e.slice('npipe:'.length), endpoint, platform);
  if (/^(\\\\|\/\/)\.[\\/]pipe[\\/]/i.test(e)) return namedPipe(e, endpoint, platform);
  if (lower.startsWith('unix://')) return unixSocket(e.slice('unix://'.length), endpoint);
  if (lower.startsWith('unix:')) return unixSocket(e.slice('unix:'.length), endpoint);
  if (lower.startsWith('tcp://')) {
    const hostPort = e.slice('tcp://'.length).replace(/\/+$/, '');
    if (!/:\d+$/.test(hostPort)) return invalid(endpoint, 'tcp endpoint needs host:port');
    return { ok: true, kind: 'tcp', target: `dns:${hostPort}`, address: hostPort };
  }
  if (e.startsWith('/')) return unixSocket(e, endpoint);
  return invalid(
    endpoint,
    'expected unix:///path, /path, npipe:////./pipe/name or tcp://host:port',
  );
}

function unixSocket(path: string, endpoint: string): DialTarget {
  // A relative path would be resolved against our cwd, not where the runtime listens.
  if (!isAbsolute(path)) return invalid(endpoint, `socket path "${path}" is not absolute`);
  return { ok: true, kind: 'unix', target: `unix:${path}`, address: path };
}

function namedPipe(rest: string, endpoint: string, platform: NodeJS.Platform): DialTarget {
  // Accept npipe:////./pipe/x, npipe://./pipe/x, \\.\pipe\x and //./pipe/x.
  const m = /^[\\/]*\.[\\/]pipe[\\/](.+)$/i.exec(rest);
  const name = m?.[1];
  if (!name) return invalid(endpoint, 'named pipe endpoint must look like npipe:////./pipe/<name>');
  const pipePath = `\\\\.\\pipe\\${name.replace(/\//g, '\\')}`;
  if (platform !== 'win32') {
    return {
      ok: false,
      code: UNAVAILABLE,
      message: `named pipe ${pipePath} can only be dialed on Windows`,
    };
  }
  return { ok: true, kind: 'npipe', target: `unix:${pipePath}`, address: pipePath };
}

function invalid(endpoint: string, why: string): DialTarget {
  return {
    ok: false,
    code: INVALID_ARGUMENT,
    message: `unusable CRI endpoint "${endpoint}": ${why}`,
  };
}
