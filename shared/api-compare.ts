/**
 * The Compare and Watch shapes the DoctorApi carries (shared/api.ts): which scans the server holds,
 * what to compare, and whether the node changed after a scan. Browser-safe: types only.
 */
import type { ScanRequest } from './api';
import type { ScanComparison } from './model/compare';

export type { ScanComparison } from './model/compare';

/** A scan the server still holds (the newest few), newest first. */
export interface HeldScan {
  scanId: string;
  request: ScanRequest;
  label: string;
  scannedAt?: string;
  findings: number;
  /** The scan the UI shows now (repairs resolve against it). */
  current: boolean;
}

/**
 * One side of a comparison: a held scan, or a source. A source is scanned without becoming the
 * current scan (bundles and demos reuse their one scan; the live node is scanned now).
 */
export type CompareSide = { scanId: string } | ScanRequest;

export interface CompareRequest {
  before: CompareSide;
  after: CompareSide;
}

export interface CompareResponse {
  comparison: ScanComparison;
  /** The scan ids that were compared (a source side names the scan it got). */
  beforeScanId: string;
  afterScanId: string;
}

/**
 * Whether the node changed after a scan. Only a node this machine reads directly (the live node,
 * `serve --root DIR`) can be watched; a bundle never changes; a remote target is read through one
 * program run per scan, so nothing notices its changes in between.
 */
export interface WatchStatus {
  scanId: string;
  available: boolean;
  /** Why watching is not available for this scan. */
  reason?: string;
  /** The node changed after this scan: its findings may no longer hold. */
  stale: boolean;
  /** Node paths that changed (the first few), when stale. */
  changed?: string[];
  changedAt?: string;
  /** How many folders and files are watched, and how: file-system events, or polling only. */
  watching?: { paths: number; mode: 'events' | 'polling' };
}

/** Pushed on the progress stream when a watched node changes after one or more scans. */
export interface StaleEvent {
  kind: 'stale';
  /** Every held scan of that node that no longer matches it. */
  scanIds: string[];
  changed: string[];
  at: string;
}
