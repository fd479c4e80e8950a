/** Moved to main/conventions/endpoint.ts (rules share it and may not import main/probes/). */
export * from '../conventions/endpoint';
