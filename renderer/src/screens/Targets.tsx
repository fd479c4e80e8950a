/**
 * The nodes this machine can reach: kind, minikube and k3d node containers (found by their
 * labels), kubeconfig nodes, ssh hosts, and the one used last. Opening one scans it through its
 * transport; the other screens then show that node, and its report says how it was reached.
 */
import { useState, type FormEvent } from 'react';
import { isRemoteTarget, parseTarget } from '../../../shared/target';
import { ErrorNotice } from '../components/ErrorNotice';
import { useAddTarget, useChooseSource, useTargets } from '../queries/use-doctor';
import { usePrefs } from '../state/prefs-store';

/** Why the typed text cannot be opened here, or null (the server checks it again). */
function typedProblem(text: string): string | null {
  const parsed = parseTarget(text.trim());
  if (!parsed.ok) return parsed.error;
  const t = parsed.target;
  if (!isRemoteTarget(t) && t.kind !== 'winrm' && t.kind !== 'pssession')
    return 'type a container:, ssh:, kubectl:, winrm: or pssession: target here (this machine, bundles and demos have their own buttons)';
  return null;
}

function OpenTyped() {
  const remembered = usePrefs((s) => s.typedTarget);
  const remember = usePrefs((s) => s.setTypedTarget);
  const [text, setText] = useState(typeof remembered === 'string' ? remembered : '');
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

export function Targets() {
  const targets = useTargets();
  const choose = useChooseSource();
  return (
    <div className="screen targets">
      <h1>Targets</h1>
      <OpenTyped />
      <section className="card" aria-labelledby="targets-title">
        <h2 id="targets-title">Nodes you can reach</h2>
        <p>
          A node container of kind, minikube or k3d is scanned through its container engine (`docker
          exec`, `podman exec`); an ssh host with your own ssh configuration and keys. Repairs work
          through both (over ssh, as root on the node).
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
    </div>
  );
}
