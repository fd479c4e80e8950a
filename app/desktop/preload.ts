/**
 * Exposes exactly the DoctorApi as `window.doctor` — no ipcRenderer, no generic invoke, no
 * Electron event objects (Electron security checklist #20). Runs sandboxed: it may require
 * `electron` only; shared/api.ts is bundled in (constants and types, no Node APIs).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  CHANNELS,
  PROGRESS_CHANNEL,
  type DoctorApi,
  type Envelope,
  type ProgressEvent,
} from '../../shared/api';

async function invoke<T>(channel: string, payload?: unknown): Promise<T> {
  const env = (await ipcRenderer.invoke(channel, payload)) as Envelope<T>;
  // contextBridge keeps only an Error's message, so the code rides in front of it.
  if (!env.ok) throw new Error(`[${env.error.code}] ${env.error.message}`);
  return env.result;
}

const api: DoctorApi = {
  info: () => invoke(CHANNELS.info),
  scan: (req) => invoke(CHANNELS.scan, req),
  inventory: (req) => invoke(CHANNELS.inventory, req),
  hnsObject: (req) => invoke(CHANNELS.hnsObject, req),
  listDemos: () => invoke(CHANNELS.listDemos),
  listBundles: () => invoke(CHANNELS.listBundles),
  listTargets: () => invoke(CHANNELS.listTargets),
  addTarget: (target) => invoke(CHANNELS.addTarget, { target }),
  openBundle: (upload) => invoke(CHANNELS.openBundle, upload),
  exportBundle: (source) => invoke(CHANNELS.exportBundle, source ? { source } : undefined),
  previewRepair: (scanId, repairId) => invoke(CHANNELS.previewRepair, { scanId, repairId }),
  applyRepair: (scanId, repairId, previewToken) =>
    invoke(CHANNELS.applyRepair, { scanId, repairId, previewToken }),
  previewUndo: (entryId, source) => invoke(CHANNELS.previewUndo, { entryId, source }),
  undo: (entryId, source) => invoke(CHANNELS.undo, { entryId, source }),
  repairRecord: (entryId, source) => invoke(CHANNELS.repairRecord, { entryId, source }),
  history: (source) => invoke(CHANNELS.history, source ? { source } : undefined),
  rules: () => invoke(CHANNELS.rules),
  listScans: () => invoke(CHANNELS.listScans),
  compare: (req) => invoke(CHANNELS.compare, req),
  watchStatus: (scanId) => invoke(CHANNELS.watchStatus, { scanId }),
  viewFile: (req) => invoke(CHANNELS.viewFile, req),
  viewLog: (req) => invoke(CHANNELS.viewLog, req),
  criRaw: (scanId) => invoke(CHANNELS.criRaw, { scanId }),
  cluster: (req) => invoke(CHANNELS.cluster, req),
  clusterScanNode: (req) => invoke(CHANNELS.clusterScanNode, req),
  explain: (req) => invoke(CHANNELS.explain, req),
  answerCredential: (req) => invoke(CHANNELS.answerCredential, req),
  onProgress(listener) {
    const handler = (_e: IpcRendererEvent, p: ProgressEvent): void => listener(p);
    ipcRenderer.on(PROGRESS_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(PROGRESS_CHANNEL, handler);
    };
  },
};

contextBridge.exposeInMainWorld('doctor', Object.freeze(api));
