/**
 * Every secret shape issue 9 (item 6) found leaking, as node files. Each secret is a unique
 * string starting with `SECRET-`, so a test can say none is left anywhere in a bundle.
 */
export interface SecretFile {
  /** Node path. */
  path: string;
  text: string;
  format: 'json' | 'toml' | 'yaml' | 'text';
  /** The secrets the file holds. */
  secrets: string[];
}

const PEM_BODY =
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7SECRET-pem1\nbW9yZSBrZXkgbWF0ZXJpYWwgaGVyZSBTRUNSRVQtcGVtMg==';

export const SECRET_FILES: SecretFile[] = [
  {
    path: '/etc/containerd/config.toml',
    format: 'toml',
    secrets: [
      'SECRET-t1',
      'SECRET-t2',
      'SECRET-t3',
      'SECRET-t4',
      'SECRET-t5',
      'SECRET-t6',
      'SECRET-t7',
      'SECRET-t8',
      'SECRET-t9',
      'SECRET-t10',
    ],
    text: `version = 2
[plugins."io.containerd.grpc.v1.cri".cni]
  bin_dir = "/opt/cni/bin"
  conf_dir = "/etc/cni/net.d"
[plugins."io.containerd.grpc.v1.cri".registry.configs."registry.example.com".auth]
  username = "robot"
  password = "SECRET-t1"
  auth = 'SECRET-t2'
  identitytoken = "SECRET-t3" # trailing comment
[plugins."io.containerd.grpc.v1.cri".registry.configs."b.example.com"]
  auth.password = "SECRET-t4"
  "auth"."identitytoken" = "SECRET-t5"
  tls = { insecure_skip_verify = false, auth = { password = "SECRET-t6", token = 'SECRET-t7' } }
  [plugins."io.containerd.grpc.v1.cri".registry.configs."c.example.com".auth]
  "password" = """
SECRET-t8
continued"""
  token = '''SECRET-t9'''
[[mirrors]]
  endpoint = ["https://m.example.com"]
  headers = [{ token = "SECRET-t10" }]
`,
  },
  {
    path: '/etc/cni/net.d/10-calico.conflist',
    format: 'json',
    secrets: ['SECRET-j1', 'SECRET-j2', 'SECRET-j3', 'SECRET-j4', 'SECRET-j5'],
    text: `{
  "name": "k8s-pod-network",
  "cniVersion": "0.3.1",
  "plugins": [
    {
      "type": "calico",
      "datastore_type": "kubernetes",
      "nodename": "node-1",
      "ipam": { "type": "calico-ipam" },
      "policy": { "type": "k8s", "k8s_auth_token": "SECRET-j1", "k8s_api_token":"SECRET-j2" },
      "kubernetes": { "kubeconfig": "/etc/cni/net.d/calico-kubeconfig", "token": "SECRET-j3" },
      "auth": { "token": "SECRET-j4", "password": "SECRET-j5" }
    },
    { "type": "portmap", "snat": true, "capabilities": { "portMappings": true } }
  ]
}
`,
  },
  {
    path: '/etc/cni/net.d/00-multus.conf',
    format: 'json',
    secrets: ['SECRET-m1', 'SECRET-m2', 'SECRET-m3'],
    text: `{"cniVersion":"0.3.1","name":"multus-cni-network","type":"multus","kubeconfig":"/etc/cni/net.d/multus.d/multus.kubeconfig","auth":{"token":"SECRET-m1","nested":{"deeper":{"apiToken":"SECRET-m2"}}},"delegates":[{"type":"flannel","args":["--token=SECRET-m3","--other=keep"],"delegate":{"isDefaultGateway":true}}]}
`,
  },
  {
    path: '/etc/cni/net.d/calico-kubeconfig',
    format: 'yaml',
    secrets: ['SECRET-y1', 'SECRET-y2', 'SECRET-y3', 'SECRET-pem1', 'SECRET-y5', 'SECRET-y6'],
    text: `# Kubeconfig file for Calico CNI plugin.
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: https://10.96.0.1:443
    certificate-authority-data: "LS0tQ0FkYXRh"
users:
- name: calico
  user:
    token: SECRET-y1
    "client-key-data": "SECRET-y2"
    password: 'SECRET-y3'
    client-key: |
      -----BEGIN RSA PRIVATE KEY-----
      ${PEM_BODY.replace('\n', '\n      ')}
      -----END RSA PRIVATE KEY-----
    auth-provider:
      config: {id-token: SECRET-y5, refresh-token: "SECRET-y6", name: oidc}
contexts:
- name: calico-context
  context:
    cluster: local
    user: calico
current-context: calico-context
`,
  },
  {
    path: '/etc/cni/net.d/multus.d/multus.kubeconfig',
    format: 'yaml',
    secrets: ['SECRET-k1', 'SECRET-k2'],
    text: `apiVersion: v1
kind: Config
users:
  - name: multus
    user: {token: SECRET-k1}
  - name: second
    user:
      client-key-data: >-
        SECRET-k2
        folded
`,
  },
  {
    path: '/etc/systemd/system/kubelet.service.d/10-kubeadm.conf',
    format: 'text',
    secrets: ['SECRET-f1', 'SECRET-f2', 'SECRET-f3', 'SECRET-f4'],
    text: `[Service]
Environment="KUBELET_EXTRA_ARGS=--token=SECRET-f1 --node-ip=10.0.0.5"
Environment="KUBELET_AUTH=--password \\"SECRET-f2\\""
Environment=KUBE_TOKEN=SECRET-f3
ExecStart=/usr/bin/kubelet --bootstrap-token='SECRET-f4' $KUBELET_EXTRA_ARGS
`,
  },
  {
    path: '/var/log/containerd.log',
    format: 'text',
    secrets: ['SECRET-l1', 'SECRET-l2', 'SECRET-l3'],
    text: `time="2024-01-01T00:00:00Z" level=info msg="Authorization: Bearer SECRET-l1abcdef"
time="2024-01-01T00:00:01Z" level=info msg="loaded" config={"password":"SECRET-l2"}
time="2024-01-01T00:00:02Z" level=error msg="failed to get token: the server has asked for the client to provide credentials"
password=SECRET-l3
`,
  },
];
