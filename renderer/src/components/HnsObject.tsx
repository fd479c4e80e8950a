/**
 * An HNS object's JSON as the node returned it, in a modal dialog: pretty-printed, searchable
 * (the lines that contain the text, with their numbers) and copyable. The text comes from the
 * node, so it is only ever React text — never HTML.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { HnsObjectKind } from '../../../shared/api-inventory';
import { useOpenObject } from '../state/open-object';
import { useScan } from '../queries/use-doctor';
import { useHnsObject } from '../queries/use-doctor';
import { CopyButton } from './CopyButton';
import { ErrorNotice } from './ErrorNotice';

const KIND_TEXT: Record<HnsObjectKind, string> = {
  network: 'network',
  endpoint: 'endpoint',
  namespace: 'namespace',
  policyList: 'policy list',
};

/** Matching lines shown at most (a search for "a" in a big policy list matches thousands). */
const MAX_MATCHES = 500;

function Matches({ json, search }: { json: string; search: string }) {
  const found = useMemo(() => {
    const q = search.toLowerCase();
    const out: { n: number; text: string }[] = [];
    let total = 0;
    json.split('\n').forEach((text, i) => {
      if (!text.toLowerCase().includes(q)) return;
      total++;
      if (out.length < MAX_MATCHES) out.push({ n: i + 1, text });
    });
    return { out, total };
  }, [json, search]);
  return (
    <>
      <p role="status" className="muted small">
        {found.total === 0
          ? 'No line contains this text.'
          : `${found.total.toLocaleString()} ${found.total === 1 ? 'line contains' : 'lines contain'} it${found.total > found.out.length ? ` (first ${found.out.length} shown)` : ''}.`}
      </p>
      <div className="excerpt json-lines" role="group" aria-label="Matching lines">
        {found.out.map((l) => (
          <div key={l.n} className="line">
            <span className="ln" aria-hidden="true">
              {l.n}
            </span>
            <code>{l.text}</code>
          </div>
        ))}
      </div>
    </>
  );
}

function HnsObjectDialog({
  scanId,
  kind,
  id,
  onClose,
}: {
  scanId: string;
  kind: HnsObjectKind;
  id: string;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [search, setSearch] = useState('');
  const obj = useHnsObject({ scanId, kind, id });
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  const title = `HNS ${KIND_TEXT[kind]} ${id}`;
  return (
    <dialog
      ref={ref}
      className="raw-object"
      aria-labelledby="raw-object-title"
      onClose={onClose}
      onKeyDown={(e) => {
        // Escape closes even from the search box (where the browser would only clear it).
        if (e.key !== 'Escape') return;
        e.preventDefault();
        ref.current?.close();
      }}
    >
      <div className="raw-object-head">
        <h2 id="raw-object-title">{title}</h2>
        <button type="button" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
      <p className="muted small">
        As the node's HNS returned it
        {obj.data?.source ? ` (${obj.data.source})` : ''}, recorded by this scan.
      </p>
      {obj.isPending && <p role="status">Loading…</p>}
      {obj.error && <ErrorNotice error={obj.error} retry={() => void obj.refetch()} />}
      {obj.data && (
        <>
          <div className="raw-object-tools">
            <input
              type="search"
              placeholder="Find in the JSON"
              aria-label="Find in the JSON"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <CopyButton label="Copy JSON" text={() => obj.data.json} />
          </div>
          {obj.data.truncatedFrom !== undefined && (
            <p className="note">
              The object is {obj.data.truncatedFrom.toLocaleString()} bytes; the first part is
              shown.
            </p>
          )}
          {search.trim() === '' ? (
            <pre className="raw-json" tabIndex={0} aria-label={`JSON of ${title}`}>
              {obj.data.json}
            </pre>
          ) : (
            <Matches json={obj.data.json} search={search.trim()} />
          )}
        </>
      )}
    </dialog>
  );
}

/** Rendered by the app (lazily, while one is open): the dialog of the object a button opened. */
export function HnsObjectHost() {
  const open = useOpenObject((s) => s.open);
  const close = useOpenObject((s) => s.close);
  const shown = useScan().data?.scanId;
  const scanId = open?.scanId ?? shown;
  if (!open || !scanId) return null;
  return (
    <HnsObjectDialog
      key={`${scanId}:${open.kind}:${open.id}`}
      scanId={scanId}
      kind={open.kind}
      id={open.id}
      onClose={close}
    />
  );
}

/** A button that opens the object's JSON. */
export function HnsObjectButton({
  scanId,
  kind,
  id,
  label = 'Show JSON',
}: {
  scanId: string;
  kind: HnsObjectKind;
  id: string;
  label?: string;
}) {
  const show = useOpenObject((s) => s.show);
  return (
    <button
      type="button"
      className="link"
      aria-label={`Show the JSON of HNS ${KIND_TEXT[kind]} ${id}`}
      onClick={() => show({ scanId, kind, id })}
    >
      {label}
    </button>
  );
}
