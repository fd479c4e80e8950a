// The CRI RuntimeService definitions grpc-js calls with, built from the embedded .proto text
// (proto-text.ts) by protobufjs, one package at a time and once per process.
//
// Why this shape — it is on a remote scan's critical path (the definitions are built while the
// node's first answers wait to be read), and each point was measured in the bundled CLI (CPU ms,
// medians of 15 remote scans: proto-loader's loadSync of both packages 22, this build of
// runtime.v1 5; with the first serializations of warmCriDefinitions 25 and 10):
// - In memory: protobufjs parses the text itself, so nothing is written to a temp dir, TMPDIR
//   does not matter, and tsx/vitest, the CJS bundles and asar archives take the same path.
//   (@grpc/proto-loader's loadSync only reads files, hence the temp dir this replaced.)
// - Without @grpc/proto-loader: besides the method definitions, it builds a DescriptorProto of
//   every message and a FileDescriptorProto of every file (for gRPC reflection, never used here)
//   — two thirds of its loadSync — and its module body compiles protobufjs's descriptor.proto at
//   first import. The method definitions are built below the way proto-loader 0.8 builds them
//   (createMethodDefinition), with the options it was given (LOADER_OPTIONS); load.test.ts holds
//   the bytes and objects proto-loader made of CRI requests and answers, and checks ours are equal.
// - One package at a time: runtime.v1alpha2 (same text, other package name) is built only when a
//   runtime answers runtime.v1 Unimplemented (client.ts `negotiate`).
// - Text, not precomputed protobufjs JSON + `Root.fromJSON`: the parse is ~2.5 ms of the ~10 left
//   (resolveAll ~2.3, the coders protobufjs generates at first use ~5, both needed either way),
//   not worth a third copy of the schema to keep in step with the .proto files.
import type { MethodDefinition } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { criProtoText, type CriPackage } from './proto-text';

/**
 * Parse options (keepCase) and conversion options (the rest) in one object, as proto-loader was
 * given them: camelCase fields; int64 as decimal strings (created_at is in nanoseconds, beyond
 * 2^53); enums as their names; absent fields filled with defaults so decoders see stable shapes.
 */
const LOADER_OPTIONS: protobuf.IParseOptions & protobuf.IConversionOptions = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

export type CriMethodDefinition = MethodDefinition<object, object>;
export type CriServiceDefinition = Readonly<Record<string, CriMethodDefinition>>;

const built = new Map<CriPackage, CriServiceDefinition>();

/** `<pkg>.RuntimeService`, built at the first call for that package. */
export function criRuntimeService(pkg: CriPackage): CriServiceDefinition {
  let service = built.get(pkg);
  if (!service) {
    service = buildRuntimeService(pkg);
    built.set(pkg, service);
  }
  return service;
}

function buildRuntimeService(pkg: CriPackage): CriServiceDefinition {
  const root = protobuf.parse(criProtoText(pkg), LOADER_OPTIONS).root;
  root.resolveAll();
  const name = `${pkg}.RuntimeService`;
  const service = root.lookup(name);
  if (!(service instanceof protobuf.Service)) throw new Error(`${name} missing from the CRI proto`);
  const methods: Record<string, CriMethodDefinition> = {};
  for (const method of service.methodsArray) methods[method.name] = methodDefinition(name, method);
  return methods;
}

function methodDefinition(service: string, method: protobuf.Method): CriMethodDefinition {
  const request = method.resolvedRequestType;
  const response = method.resolvedResponseType;
  // resolveAll() above resolved both, or threw.
  if (!request || !response) throw new Error(`${service}/${method.name}: types not resolved`);
  return {
    path: `/${service}/${method.name}`,
    requestStream: !!method.requestStream,
    responseStream: !!method.responseStream,
    requestSerialize: serializer(request),
    requestDeserialize: deserializer(request),
    responseSerialize: serializer(response),
    responseDeserialize: deserializer(response),
    // proto-loader's lodash camelCase of the name; CRI's method names are plain PascalCase.
    originalName: method.name.charAt(0).toLowerCase() + method.name.slice(1),
  };
}

function serializer(type: protobuf.Type): (value: object) => Buffer {
  return (value) => {
    if (Array.isArray(value))
      throw new Error(
        `Failed to serialize message: expected object with ${type.name} structure, got array instead`,
      );
    const bytes = type.encode(type.fromObject(value)).finish();
    // On Node protobufjs writes into a Buffer already; the view is for the type's sake.
    return Buffer.isBuffer(bytes)
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
}

function deserializer(type: protobuf.Type): (bytes: Buffer) => object {
  return (bytes) => type.toObject(type.decode(bytes), LOADER_OPTIONS);
}
