// Stand-in CRI endpoints for unit tests (no root, no containerd): a grpc-js server serving
// chosen CRI packages, a Go-grpc-like server that knows no service, a socket that accepts and
// never answers, and a stale socket file nobody listens on.
import { spawn } from 'node:child_process';
import { createServer as createHttp2Server, constants as h2 } from 'node:http2';
import { createServer as createNetServer, type Socket } from 'node:net';
import {
  Server,
  ServerCredentials,
  status as grpcStatus,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { containerdVersionMethod, type ContainerdVersion } from './containerd-version';
import { criRuntimeService } from './proto/load';
import type { CriApi } from './types';

export interface FakeServer {
  socket: string;
  close(): Promise<void>;
}

export type FakeRuntime = Partial<
  Record<'Version' | 'Status' | 'ListPodSandbox', (request: object) => object>
>;

/**
 * grpc-js server on a unix socket; methods not given answer UNIMPLEMENTED (grpc-js wording).
 * `containerdVersion`: also serve containerd's own Version service with that answer.
 */
export async function startGrpcCriServer(
  socket: string,
  services: Partial<Record<CriApi, FakeRuntime>>,
  containerdVersion?: ContainerdVersion,
): Promise<FakeServer> {
  const server = new Server();
  if (containerdVersion)
    server.addService(
      { Version: containerdVersionMethod() },
      {
        Version: (_call: unknown, callback: (err: null, value: object) => void) =>
          callback(null, containerdVersion),
      },
    );
  for (const [api, impl] of Object.entries(services) as [CriApi, FakeRuntime][]) {
    const handlers: UntypedServiceImplementation = {};
    for (const [method, fn] of Object.entries(impl)) {
      handlers[method] = (
        call: { request: object },
        callback: (err: null, value: object) => void,
      ) => {
        callback(null, fn(call.request));
      };
    }
    server.addService(criRuntimeService(api), handlers);
  }
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`unix:${socket}`, ServerCredentials.createInsecure(), (err) =>
      err ? reject(err) : resolve(),
    ),
  );
  return {
    socket,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

/**
 * HTTP/2 server answering every call the way a Go grpc server (containerd) does for a service
 * it does not register: grpc-status 12, "unknown service <package>.<Service>".
 */
export async function startUnknownServiceServer(socket: string): Promise<FakeServer> {
  const server = createHttp2Server();
  server.on('stream', (stream, headers) => {
    const path = String(headers[h2.HTTP2_HEADER_PATH] ?? '');
    const service = path.split('/')[1] ?? '';
    stream.respond(
      { [h2.HTTP2_HEADER_STATUS]: 200, 'content-type': 'application/grpc' },
      { waitForTrailers: true },
    );
    stream.on('wantTrailers', () =>
      stream.sendTrailers({
        'grpc-status': String(grpcStatus.UNIMPLEMENTED),
        'grpc-message': `unknown service ${service}`,
      }),
    );
    stream.end();
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return { socket, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Accepts connections and never sends a byte (a wedged runtime). */
export async function startHangingServer(
  socket: string,
): Promise<FakeServer & { connections(): number }> {
  const open = new Set<Socket>();
  let accepted = 0;
  const server = createNetServer((s) => {
    accepted++;
    open.add(s);
    s.on('close', () => open.delete(s));
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return {
    socket,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Leaves a socket file behind with no listener: a child binds it and is SIGKILLed. */
export async function makeStaleSocket(socket: string): Promise<void> {
  const script = `require('net').createServer().listen(${JSON.stringify(socket)}, () => process.kill(process.pid, 'SIGKILL'))`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
}
