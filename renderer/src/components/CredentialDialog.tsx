/**
 * The password a node's session needs (winrm:USER@HOST), asked the way the terminal asks it:
 * a modal dialog with a masked field, shown when the engine sends a `credential` progress event
 * (shared/api-credential.ts). The password is read from the field once, sent with
 * answerCredential, and the field is emptied; it is never put in React state, the address, the
 * preferences or a log. Cancel (or Escape) answers with no password: the scan then fails with
 * "no password given".
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { CredentialEvent } from '../../../shared/api-credential';
import { CREDENTIAL_LIMITS } from '../../../shared/api-credential';
import { useApi } from '../api/api-context';

type Asking = CredentialEvent & { state: 'asking' };

export function CredentialDialog() {
  const api = useApi();
  const [asking, setAsking] = useState<Asking[]>([]);
  useEffect(
    () =>
      api.onProgress((e) => {
        if (e.kind !== 'credential') return;
        if (e.state === 'asking') setAsking((a) => [...a, e as Asking]);
        else setAsking((a) => a.filter((x) => x.requestId !== e.requestId));
      }),
    [api],
  );
  const first = asking[0];
  return first ? (
    <PasswordDialog
      key={first.requestId}
      question={first}
      answer={(password) => {
        setAsking((a) => a.filter((x) => x.requestId !== first.requestId));
        void api
          .answerCredential({
            requestId: first.requestId,
            ...(password !== undefined && { password }),
          })
          .catch(() => undefined);
      }}
    />
  ) : null;
}

function PasswordDialog({
  question,
  answer,
}: {
  question: Asking;
  answer: (password: string | undefined) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const answered = useRef(false);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    field.current?.focus();
  }, []);
  const finish = (password: string | undefined): void => {
    if (answered.current) return;
    answered.current = true;
    if (field.current) field.current.value = '';
    ref.current?.close();
    answer(password);
  };
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const value = field.current?.value ?? '';
    if (value === '') return;
    finish(value);
  };
  const who = `${question.user ?? 'the user'}`;
  return (
    <dialog
      ref={ref}
      className="credential"
      aria-labelledby="credential-title"
      aria-describedby="credential-why"
      data-testid="credential-dialog"
      onCancel={(e) => {
        e.preventDefault();
        finish(undefined);
      }}
    >
      <form onSubmit={submit} autoComplete="off">
        <h2 id="credential-title">Password for {who}</h2>
        <p id="credential-why">
          <code>{question.target}</code> logs on to the node as <strong>{who}</strong> through
          PowerShell remoting (WinRM). The password is used once, for this session, and not kept.
        </p>
        <label htmlFor="credential-password">Password</label>{' '}
        <input
          ref={field}
          id="credential-password"
          name="credential-password"
          type="password"
          autoComplete="off"
          spellCheck={false}
          maxLength={CREDENTIAL_LIMITS.maxPasswordChars}
          required
        />
        <div className="credential-actions">
          <button type="submit">Connect</button>{' '}
          <button type="button" onClick={() => finish(undefined)}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
