/**
 * The API server from inside a pod: its service account token and CA (re-read at every call:
 * projected tokens rotate) and KUBERNETES_SERVICE_HOST/PORT, over HTTPS with node:https — no
 * client library. On a Windows HostProcess pod the secret files sit under
 * %CONTAINER_SANDBOX_MOUNT_POINT%.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';

export const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface ApiResponse {
  status: number;
  body: string;
}

export interface Api {
  call(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body?: unknown,
    type?: string,
  ): Promise<ApiResponse>;
}

export function inClusterApi(env: NodeJS.ProcessEnv = process.env, saDir?: string): Api {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT ?? '443';
  if (!host) throw new Error('not in a pod: KUBERNETES_SERVICE_HOST is not set');
  const dir = saDir ?? join(env.CONTAINER_SANDBOX_MOUNT_POINT ?? '/', SA_DIR);
  return {
    call: (method, path, body, type = 'application/json') =>
      new Promise((resolve, reject) => {
        const token = readFileSync(join(dir, 'token'), 'utf8').trim();
        const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
        const req = request(
          {
            host: host.includes(':') ? `[${host}]` : host,
            port: Number(port),
            method,
            path,
            ca: readFileSync(join(dir, 'ca.crt')),
            servername: 'kubernetes.default.svc',
            headers: {
              authorization: `Bearer ${token}`,
              accept: 'application/json',
              ...(data && { 'content-type': type, 'content-length': data.length }),
            },
            timeout: 30_000,
          },
          (res) => {
            const parts: Buffer[] = [];
            res.on('data', (b: Buffer) => parts.push(b));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                body: Buffer.concat(parts).toString('utf8').slice(0, 4096),
              }),
            );
          },
        );
        req.on('timeout', () =>
          req.destroy(new Error(`no answer from the API server within 30 s`)),
        );
        req.on('error', reject);
        req.end(data);
      }),
  };
}
