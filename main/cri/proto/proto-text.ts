// The CRI subset cni-doctor speaks, as proto source text.
//
// Why a TS copy of the .proto files: the CLI is bundled by esbuild into one `dist/cli.cjs` (and the
// desktop main process into a CJS file), where no `.proto` file sits next to the code. The loader
// (`load.ts`) parses this text in memory, bundled or not; `runtime-v1.proto` /
// `runtime-v1alpha2.proto` stay as the copy people and gRPC tools read. `proto.test.ts` checks
// that both files are byte-for-byte `criProtoText(<package>)`, so the two copies cannot drift.
//
// Field numbers are those of k8s.io/cri-api `pkg/apis/runtime/v1/api.proto` (and the identical
// `v1alpha2/api.proto`, checked against a mirror of kubernetes/cri-api). Only the messages the
// doctor and the lab need are declared; unknown fields in answers are skipped by protobuf, and
// omitted request fields keep their CRI defaults.

export type CriPackage = 'runtime.v1' | 'runtime.v1alpha2';

export const CRI_PACKAGES: readonly CriPackage[] = ['runtime.v1', 'runtime.v1alpha2'];

/** File name of the on-disk copy for a package, e.g. `runtime-v1.proto`. */
export function criProtoFileName(pkg: CriPackage): string {
  return `${pkg.replace('.', '-')}.proto`;
}

export function criProtoText(pkg: CriPackage): string {
  return `// GENERATED COPY of main/cri/proto/proto-text.ts (criProtoText('${pkg}')); keep both identical.
// Minimal subset of k8s.io/cri-api pkg/apis/runtime/${pkg.slice('runtime.'.length)}/api.proto; field numbers match upstream.
syntax = "proto3";

package ${pkg};

service RuntimeService {
  rpc Version(VersionRequest) returns (VersionResponse) {}
  rpc RunPodSandbox(RunPodSandboxRequest) returns (RunPodSandboxResponse) {}
  rpc StopPodSandbox(StopPodSandboxRequest) returns (StopPodSandboxResponse) {}
  rpc RemovePodSandbox(RemovePodSandboxRequest) returns (RemovePodSandboxResponse) {}
  rpc PodSandboxStatus(PodSandboxStatusRequest) returns (PodSandboxStatusResponse) {}
  rpc ListPodSandbox(ListPodSandboxRequest) returns (ListPodSandboxResponse) {}
  rpc Status(StatusRequest) returns (StatusResponse) {}
}

message VersionRequest {
  string version = 1;
}

message VersionResponse {
  string version = 1;
  string runtime_name = 2;
  string runtime_version = 3;
  string runtime_api_version = 4;
}

message DNSConfig {
  repeated string servers = 1;
  repeated string searches = 2;
  repeated string options = 3;
}

enum Protocol {
  TCP = 0;
  UDP = 1;
  SCTP = 2;
}

message PortMapping {
  Protocol protocol = 1;
  int32 container_port = 2;
  int32 host_port = 3;
  string host_ip = 4;
}

enum NamespaceMode {
  POD = 0;
  CONTAINER = 1;
  NODE = 2;
  TARGET = 3;
}

message NamespaceOption {
  NamespaceMode network = 1;
  NamespaceMode pid = 2;
  NamespaceMode ipc = 3;
  string target_id = 4;
}

message Int64Value {
  int64 value = 1;
}

message LinuxSandboxSecurityContext {
  NamespaceOption namespace_options = 1;
  Int64Value run_as_user = 3;
  bool readonly_rootfs = 4;
  repeated int64 supplemental_groups = 5;
  bool privileged = 6;
  Int64Value run_as_group = 8;
}

message LinuxPodSandboxConfig {
  string cgroup_parent = 1;
  LinuxSandboxSecurityContext security_context = 2;
  map<string, string> sysctls = 3;
}

message PodSandboxMetadata {
  string name = 1;
  string uid = 2;
  string namespace = 3;
  uint32 attempt = 4;
}

message PodSandboxConfig {
  PodSandboxMetadata metadata = 1;
  string hostname = 2;
  string log_directory = 3;
  DNSConfig dns_config = 4;
  repeated PortMapping port_mappings = 5;
  map<string, string> labels = 6;
  map<string, string> annotations = 7;
  LinuxPodSandboxConfig linux = 8;
}

message RunPodSandboxRequest {
  PodSandboxConfig config = 1;
  string runtime_handler = 2;
}

message RunPodSandboxResponse {
  string pod_sandbox_id = 1;
}

message StopPodSandboxRequest {
  string pod_sandbox_id = 1;
}

message StopPodSandboxResponse {}

message RemovePodSandboxRequest {
  string pod_sandbox_id = 1;
}

message RemovePodSandboxResponse {}

message PodSandboxStatusRequest {
  string pod_sandbox_id = 1;
  bool verbose = 2;
}

message PodIP {
  string ip = 1;
}

message PodSandboxNetworkStatus {
  string ip = 1;
  repeated PodIP additional_ips = 2;
}

message Namespace {
  NamespaceOption options = 2;
}

message LinuxPodSandboxStatus {
  Namespace namespaces = 1;
}

enum PodSandboxState {
  SANDBOX_READY = 0;
  SANDBOX_NOTREADY = 1;
}

message PodSandboxStatus {
  string id = 1;
  PodSandboxMetadata metadata = 2;
  PodSandboxState state = 3;
  int64 created_at = 4;
  PodSandboxNetworkStatus network = 5;
  LinuxPodSandboxStatus linux = 6;
  map<string, string> labels = 7;
  map<string, string> annotations = 8;
  string runtime_handler = 9;
}

message PodSandboxStatusResponse {
  PodSandboxStatus status = 1;
  map<string, string> info = 2;
}

message PodSandboxStateValue {
  PodSandboxState state = 1;
}

message PodSandboxFilter {
  string id = 1;
  PodSandboxStateValue state = 2;
  map<string, string> label_selector = 3;
}

message ListPodSandboxRequest {
  PodSandboxFilter filter = 1;
}

message PodSandbox {
  string id = 1;
  PodSandboxMetadata metadata = 2;
  PodSandboxState state = 3;
  int64 created_at = 4;
  map<string, string> labels = 5;
  map<string, string> annotations = 6;
  string runtime_handler = 7;
}

message ListPodSandboxResponse {
  repeated PodSandbox items = 1;
}

message StatusRequest {
  bool verbose = 1;
}

message RuntimeCondition {
  string type = 1;
  bool status = 2;
  string reason = 3;
  string message = 4;
}

message RuntimeStatus {
  repeated RuntimeCondition conditions = 1;
}

// Fields 3 (runtime_handlers, cri-api v0.30+) and 4 (features, v0.31+) are not declared: the
// doctor does not use them and protobuf skips them when a newer runtime sends them.
message StatusResponse {
  RuntimeStatus status = 1;
  map<string, string> info = 2;
}
`;
}
