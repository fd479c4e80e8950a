/**
 * What an answer of the node agent may hold, from the question it answers: a read at most the
 * `max`+1 bytes it asked for, a listing at most its `max` names, and so on. A node that sends more
 * is not answering our question (a hostile node container grew the operator's process past 3 GB
 * with endless blocks and names), so the parser ends the session instead of buffering it.
 */
import type { AgentRequest } from './agent-session';

export interface AnswerLimits {
  /** For messages: which question was being answered. */
  what: string;
  maxBlocks: number;
  /** Decoded block bytes plus name bytes of the whole answer. */
  maxBytes: number;
  maxNames: number;
  maxNameBytes: number;
  maxValues: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;
/** PATH_MAX: a hostname, a program's path, a crictl command. */
const PATH_BYTES = 4096;
/**
 * A directory entry's name is at most NAME_MAX (255) bytes on Linux file systems; a listing of
 * `max` names is bounded by that, with room to spare.
 */
const ENTRY_BYTES = 1024;

/** Every byte a session (one command's conversation with one node) may receive. */
export const SESSION_MAX_BYTES = 128 * MiB;

/**
 * Output of the node's own tools the agent relays whole: its process table (`head -c 65536` of
 * each process's cmdline), systemctl's few properties, a journal excerpt, crictl's JSON. Far above
 * what real nodes produce (a 110-pod node's `crictl pods -o json` is well under 1 MiB).
 */
const TOOL_OUTPUT = {
  procs: 48 * MiB,
  services: 4 * MiB,
  journal: 32 * MiB,
  crictl: 16 * MiB,
} as const;

function limits(what: string, o: Partial<Omit<AnswerLimits, 'what'>>): AnswerLimits {
  return {
    what,
    maxBlocks: 0,
    maxBytes: 0,
    maxNames: 0,
    maxNameBytes: 0,
    maxValues: 0,
    ...o,
  };
}

export function answerLimits(r: AgentRequest): AnswerLimits {
  switch (r.op) {
    case 'stat':
      return limits(`a stat of ${r.path}`, {});
    case 'read': {
      // The agent sends one byte more than asked: more means the file was cut short.
      const max = Math.max(1, Math.floor(r.max)) + 1;
      return limits(`a read of ${r.path}`, { maxBlocks: 1, maxBytes: max });
    }
    case 'tail':
      return limits(`a tail of ${r.path}`, {
        maxBlocks: 1,
        maxBytes: Math.max(1, Math.floor(r.bytes)),
      });
    case 'list': {
      const max = Math.max(1, Math.floor(r.max));
      return limits(`a listing of ${r.path}`, {
        maxNames: max,
        maxNameBytes: ENTRY_BYTES,
        maxBytes: Math.min(max * ENTRY_BYTES, 32 * MiB),
      });
    }
    case 'procs':
      return limits('the process table', { maxBlocks: 1, maxBytes: TOOL_OUTPUT.procs });
    case 'node':
      return limits("the node's name", {
        maxNames: 1,
        maxNameBytes: PATH_BYTES,
        maxBytes: PATH_BYTES,
        maxValues: 1,
      });
    case 'services':
      return limits('the services', { maxBlocks: 1, maxBytes: TOOL_OUTPUT.services });
    case 'journal':
      return limits(`the journal of ${r.unit}`, { maxBlocks: 1, maxBytes: TOOL_OUTPUT.journal });
    case 'version':
      // `head -c 4096` of the program's output.
      return limits(`the version of ${r.path}`, { maxBlocks: 1, maxBytes: 4 * KiB });
    case 'which':
      return limits(`where ${r.program} is`, {
        maxNames: 1,
        maxNameBytes: PATH_BYTES,
        maxBytes: PATH_BYTES,
      });
    case 'relay':
      // Only the answer that socat is missing; once handed over, the bytes are gRPC's business.
      return limits(`a CRI relay to ${r.path}`, {});
    case 'crictl':
      // Which crictl (a name), then per call (version, info, pods) an exit code and its output.
      return limits(`crictl on ${r.endpoint}`, {
        maxNames: 1,
        maxNameBytes: PATH_BYTES,
        maxBlocks: 3,
        maxValues: 3,
        maxBytes: PATH_BYTES + 3 * TOOL_OUTPUT.crictl,
      });
  }
}
