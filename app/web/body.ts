/** Reads a request body with a hard cap: the socket is cut as soon as the cap is passed. */
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../shared-server/errors';

export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes)
    throw new ApiError('too-large', `request body is larger than ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes)
      throw new ApiError('too-large', `request body is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
