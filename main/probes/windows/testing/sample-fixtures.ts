/**
 * Where the real samples and their converted fixtures live in the repository, for the tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const SAMPLES_DIR = fileURLToPath(
  new URL('../../../../fixtures/windows/samples/', import.meta.url),
);
export const SAMPLE_SOURCES_DIR = join(SAMPLES_DIR, 'source');

export interface RawSample {
  file: string;
  text: string;
  origin: string;
  fixturePath: string;
}

export function rawSamples(): RawSample[] {
  return readdirSync(SAMPLE_SOURCES_DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((file) => ({
      file,
      text: readFileSync(join(SAMPLE_SOURCES_DIR, file), 'utf8'),
      origin: readFileSync(join(SAMPLE_SOURCES_DIR, `${file}.source`), 'utf8'),
      fixturePath: join(SAMPLES_DIR, file.replace(/\.txt$/, '.json')),
    }));
}

export function loadFixture(file: string): unknown {
  return JSON.parse(
    readFileSync(join(SAMPLES_DIR, file.replace(/\.txt$/, '.json')), 'utf8'),
  ) as unknown;
}
