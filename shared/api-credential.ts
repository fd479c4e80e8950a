/**
 * A password the engine needs to open a node's session (winrm:USER@HOST: USER's password for
 * PowerShell remoting with -Credential), asked in the UI the way the terminal asks it.
 *
 * The engine asks when the session opens: a `credential` progress event with state 'asking'
 * names the target and user (never anything secret); the UI shows a masked password dialog and
 * answers with `answerCredential` — the password, or nothing (cancelled). The answer is used once
 * for that session (credential-pipe.ts hands it to PowerShell as a SecureString) and not kept; a
 * 'closed' event follows when the question is answered, cancelled, timed out, or its scan went.
 */
export interface CredentialEvent {
  kind: 'credential';
  requestId: string;
  state: 'asking' | 'closed';
  /** The target in its one-line form (`winrm:Administrator@win-node-1`). */
  target?: string;
  user?: string;
  /** The scan job the question belongs to. */
  jobId?: string;
}

export interface CredentialAnswer {
  requestId: string;
  /** Absent: the user cancelled. */
  password?: string;
}

export interface CredentialAnswerResult {
  /** False when nobody was waiting for this request any more (answered, timed out, cancelled). */
  accepted: boolean;
}

export const CREDENTIAL_LIMITS = {
  /** The pipe reader's buffer is 1024 bytes; 256 characters of any script fit. */
  maxPasswordChars: 256,
  /** How long a question waits for its answer. */
  waitMs: 5 * 60_000,
} as const;

export const CREDENTIAL_REQUEST_ID = /^c-[a-f0-9]{16}$/;
