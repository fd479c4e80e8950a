/** Moved to main/conventions/node-paths.ts (rules share it and may not import main/host/). */
export * from '../conventions/node-paths';
