/**
 * The node picker (the first screen when no node was chosen, and the Targets screen): this
 * machine, the nodes it can reach — kind, minikube and k3d node containers (found by their
 * labels), kubeconfig nodes, ssh hosts, the one used last —, a typed target, bundles and demos.
 * Opening one scans it; every screen then shows that node, and the address names it.
 */
import { useState, type FormEvent } from 'react';
import { isRemoteTarget, parseTarget } from '../../../shared/target';
import { ErrorNotice } from '../components/ErrorNotice';
import {
  useAddTarget,
  useBundles,
  useChooseSource,
  useDemos,
  useInfo,
  useTargets,
} from '../queries/use-doctor';
import { usePrefs } from '../state/prefs-store';
import { useView } from '../state/view-store';

/** Why the typed text cannot be opened here, or null (the server checks it again). */
function typedProblem(text: string): string | null {
  const parsed = parseTarget(text.trim());
  if (!parsed.ok) return parsed.error;
  const t = parsed.target;
  if (!isRemoteTarget(t) && t.kind !== 'winrm' && t.kind !== 'pssession')
    return 'type a container:, ssh:, kubectl:, winrm: or pssession: target here (this machine, bundles and demos have their own buttons)';
  return null;
}

function OpenTyped({ initial }: { initial?: string }) {
  const remembered = usePrefs((s) => s.typedTarget);
  const remember = usePrefs((s) => s.setTypedTarget);
  const [text, setText] = useState(initial ?? (typeof remembered === 'string' ? remembered : ''));
  const [touched, setTouched] = useState(false);
  const add = useAddTarget();
  const choose = useChooseSource();
  const problem = text.trim() === '' ? 'type a target' : typedProblem(text);
  const shown = touched && text.trim() !== '' ? problem : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (problem) return;
    remember(text.trim());
    add.mutate(text.trim(), {
      onSuccess: (entry) => choose({ source: 'target', targetId: entry.targetId }),
    });
  };
  return (
    <form className="card" aria-labelledby="typed-title" onSubmit={submit} noValidate>
      <h2 id="typed-title">Open a node by its target</h2>
      <label htmlFor="typed-target">Target</label>{' '}
      <input
        id="typed-target"
        name="target"
        type="text"
        spellCheck={false}
        autoComplete="off"
        placeholder="ssh:admin@node1, container:docker/kind-control-plane, kubectl:ctx/node1"
        value={text}
        maxLength={1024}
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? 'typed-problem' : 'typed-help'}
        onChange={(e) => {
          setText(e.target.value);
          setTouched(true);
        }}
      />{' '}
      <button type="submit" disabled={add.isPending}>
        Open
      </button>
      <p id="typed-help" className="muted small">
        <code>container:ENGINE/NAME</code> (docker, podman, nerdctl),{' '}
        <code>ssh:[USER@]HOST[:PORT]</code> with your own ssh configuration and keys, or{' '}
        <code>kubectl:[CONTEXT/]NODE</code> (a short-lived debug pod, deleted after); Windows nodes
        also <code>winrm:[USER@]HOST[:PORT]</code> (from a Windows workstation; with USER@ you are
        asked for the password) or <code>pssession:[USER@]HOST[:PORT]</code> (PowerShell 7 over
        SSH).
      </p>
      {shown && (
        <div id="typed-problem" className="notice error" aria-live="polite">
          <p>{shown}</p>
        </div>
      )}
      {add.isPending && <p role="status">Checking…</p>}
      {add.error && <ErrorNotice error={add.error} />}
    </form>
  );
}

function ThisMachine({ first }: { first: boolean }) {
  const info = useInfo();
  const choose = useChooseSource();
  const why = info.data?.thisMachineIsNode;
  return (
    <section className="card" aria-labelledby="this-machine-title" data-this-machine={first}>
      <h2 id="this-machine-title">This machine</h2>
      <p>
        {why
          ? `This machine looks like a Kubernetes node (${why}).`
          : 'No kubelet configuration was found here: scan this machine only if it is the node you mean.'}
      </p>
      <button
        type="button"
        className={why ? 'primary' : undefined}
        onClick={() => choose({ source: 'live' })}
      >
        Scan this machine
      </button>
    </section>
  );
}

function Reachable() {
  const targets = useTargets();
  const choose = useChooseSource();
  return (
    <section className="card" aria-labelledby="targets-title">
      <h2 id="targets-title">Nodes you can reach</h2>
      <p>
        A node container of kind, minikube or k3d is scanned through its container engine (
        <code>docker exec</code>, <code>podman exec</code>); an ssh host with your own ssh
        configuration and keys. Repairs work through both (over ssh, as root on the node).
      </p>
      <button type="button" onClick={() => void targets.refetch()} disabled={targets.isFetching}>
        Look again
      </button>
      {targets.isFetching && <p role="status">Looking for nodes…</p>}
      {targets.error && <ErrorNotice error={targets.error} />}
      {targets.data &&
        (targets.data.targets.length ? (
          <ul className="plain-list" aria-label="Reachable nodes">
            {targets.data.targets.map((t) => (
              <li key={t.targetId}>
                <button
                  type="button"
                  className="link"
                  onClick={() => choose({ source: 'target', targetId: t.targetId })}
                >
                  {t.target}
                </button>{' '}
                <span className="muted">
                  {t.what}
                  {t.canRepair ? '' : ' · scan only'}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No node containers, kubeconfig nodes or ssh hosts found.</p>
        ))}
      {targets.data && targets.data.notes.length > 0 && (
        <details>
          <summary>Not looked at ({targets.data.notes.length})</summary>
          <ul className="plain-list small">
            {targets.data.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function Recordings() {
  const bundles = useBundles();
  const demos = useDemos();
  const choose = useChooseSource();
  const go = useView((v) => v.go);
  return (
    <section className="card" aria-labelledby="recordings-title">
      <h2 id="recordings-title">Recordings</h2>
      <p>A support bundle or a demo node: read only, scanned like the node it came from.</p>
      {bundles.data && bundles.data.length > 0 && (
        <ul className="plain-list" aria-label="Bundles opened in this session">
          {bundles.data.map((b) => (
            <li key={b.bundleId}>
              <button
                type="button"
                className="link"
                onClick={() => choose({ source: 'bundle', bundleId: b.bundleId })}
              >
                {b.name}
              </button>{' '}
              <span className="muted">bundle{b.hostname ? ` of ${b.hostname}` : ''}</span>
            </li>
          ))}
        </ul>
      )}
      <button type="button" onClick={() => go('bundles')}>
        Open a bundle file…
      </button>
      {demos.data && demos.data.length > 0 && (
        <ul className="plain-list" aria-label="Demo nodes">
          {demos.data.map((d) => (
            <li key={d.id}>
              <button
                type="button"
                className="link"
                onClick={() => choose({ source: 'demo', demoId: d.id })}
              >
                demo: {d.title}
              </button>{' '}
              <span className="muted">{d.os}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * `reopen`: a target the address names that this session has not opened (a link kept across a
 * restart): it is offered, typed in, not opened unasked.
 */
export function NodePicker({ heading, reopen }: { heading: string; reopen?: string }) {
  const info = useInfo();
  const machineIsNode = info.data?.thisMachineIsNode !== undefined;
  return (
    <div className="screen targets node-picker">
      <h1>{heading}</h1>
      {reopen !== undefined && (
        <p className="note" role="status">
          The address names <code>{reopen}</code>, which this session has not opened yet. Check it
          below and press Open to scan it.
        </p>
      )}
      {machineIsNode && <ThisMachine first />}
      <Reachable />
      <OpenTyped {...(reopen !== undefined && { initial: reopen })} />
      {!machineIsNode && <ThisMachine first={false} />}
      <Recordings />
    </div>
  );
}

export function Targets() {
  return <NodePicker heading="Targets" />;
}
