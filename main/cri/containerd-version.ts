// containerd's own Version service, asked on the CRI socket beside CRI: the running daemon's
// version, which CRI cannot give when containerd's CRI plugin is disabled (containerd from the
// Docker packages ships `disabled_plugins = ["cri"]`). A remote scan takes a running runtime's
// version from its socket instead of running its 48 MB binary on the node (snapshot.ts).
//
// From containerd's api/services/version/v1/version.proto (the same in 1.x and 2.x):
//   service Version { rpc Version(google.protobuf.Empty) returns (VersionResponse); }
//   message VersionResponse { string version = 1; string revision = 2; }
// Two string fields: declared here through protobufjs's reflection API, not parsed from text.
import type { MethodDefinition } from '@grpc/grpc-js';
import protobuf from 'protobufjs';

export interface ContainerdVersion {
  version: string;
  revision: string;
}

let method: MethodDefinition<object, object> | undefined;

/** `/containerd.services.version.v1.Version/Version`, built at first use. */
export function containerdVersionMethod(): MethodDefinition<object, object> {
  if (method) return method;
  const response = new protobuf.Type('VersionResponse')
    .add(new protobuf.Field('version', 1, 'string'))
    .add(new protobuf.Field('revision', 2, 'string'));
  new protobuf.Root().define('containerd.services.version.v1').add(response);
  const empty = Buffer.alloc(0);
  method = {
    path: '/containerd.services.version.v1.Version/Version',
    requestStream: false,
    responseStream: false,
    // google.protobuf.Empty: no fields, no bytes.
    requestSerialize: () => empty,
    requestDeserialize: () => ({}),
    responseSerialize: (v) => Buffer.from(response.encode(response.fromObject(v)).finish()),
    responseDeserialize: (bytes): ContainerdVersion => {
      const o = response.toObject(response.decode(bytes), { defaults: true });
      return { version: String(o.version ?? ''), revision: String(o.revision ?? '') };
    },
    originalName: 'version',
  };
  return method;
}
