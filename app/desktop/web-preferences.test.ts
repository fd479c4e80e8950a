import { describe, expect, it } from 'vitest';
import { secureWebPreferences } from './web-preferences';

describe('window webPreferences', () => {
  it('isolate and sandbox the page, with no Node anywhere', () => {
    expect(secureWebPreferences('/x/preload.cjs')).toMatchObject({
      preload: '/x/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
  });
});
