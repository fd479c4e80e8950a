/**
 * Electron main: one window running the renderer with every Node door closed, the DoctorApi over
 * validated IPC, the engine in this (unelevated) process, and an elevated CLI run for repairs that
 * need root/Administrator. `--cli …` turns the app into the command line instead (cli-mode.ts).
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, session } from 'electron';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { PROGRESS_CHANNEL } from '../../shared/api';
import { createDispatcher } from '../shared-server/dispatch';
import { shellLine } from '../../shared/shell-quote';
import { createEngineBackend } from '../shared-server/engine-backend';
import { engineRepairs } from '../shared-server/engine-repairs';
import { ProgressBus } from '../shared-server/progress';
import { findDemosDir } from '../shared-server/demos';
import { writeOutputFile } from '../../main/bundle/output-file';
import { cliArgs, runCliMode } from './cli-mode';
import { makeElevatedRunner } from './elevation';
import { registerIpcHandlers } from './ipc-handlers';
import { hardenAllWebContents, hardenSession } from './security';
import { appPageUrl } from './sender';
import { secureWebPreferences } from './web-preferences';

const cli = cliArgs(process.argv);
if (cli) {
  runCliMode(cli).then(
    (code) => app.exit(code),
    () => app.exit(2),
  );
} else {
  startGui();
}

function startGui(): void {
  app.enableSandbox();
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  hardenAllWebContents();

  // dist/desktop/main.cjs → dist/renderer/index.html (inside app.asar when packaged).
  const indexHtml = path.join(__dirname, '..', 'renderer', 'index.html');
  const preload = path.join(__dirname, 'preload.cjs');
  const pageUrl = appPageUrl(indexHtml);
  let win: BrowserWindow | null = null;

  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.on('window-all-closed', () => app.quit());

  void app.whenReady().then(async () => {
    hardenSession(session.defaultSession);
    if (app.isPackaged) Menu.setApplicationMenu(null);

    const progress = new ProgressBus();
    const demosDir = findDemosDir([
      path.join(process.resourcesPath, 'demo'),
      path.join(app.getAppPath(), 'assets', 'demo'),
    ]);
    // The elevated run is this same program in CLI mode; an AppImage is elevated as the file itself
    // (root cannot enter the user's FUSE mount of it).
    const self = app.isPackaged
      ? { exe: process.env.APPIMAGE ?? process.execPath, prefixArgs: [] }
      : { exe: process.execPath, prefixArgs: [app.getAppPath()] };
    const backend = await createEngineBackend({
      door: 'desktop',
      progress,
      repairs: engineRepairs(),
      demosDir,
      runElevated: makeElevatedRunner(self),
      // The "could not look" banner's command: this app again as root (Electron refuses to run
      // its sandbox as root, hence --no-sandbox). Windows says "Run as Administrator" instead.
      ...(process.platform !== 'win32' && {
        rerunElevated: shellLine(['sudo', self.exe, ...self.prefixArgs, '--no-sandbox']),
      }),
    });

    const dispatcher = createDispatcher({
      backend,
      chooseBundleFile: async () => {
        const r = await dialog.showOpenDialog({
          title: 'Open a cni-doctor bundle',
          properties: ['openFile'],
          filters: [{ name: 'Node bundle', extensions: ['gz', 'tgz'] }],
        });
        return r.canceled || !r.filePaths[0] ? null : r.filePaths[0];
      },
      onError: (op, code, msg) => console.warn(`cni-doctor: ${op}: ${code}: ${msg}`),
    });
    registerIpcHandlers({
      ipcMain,
      dispatcher,
      pageUrl,
      saveExport: async (bundle) => {
        const r = await dialog.showSaveDialog({
          title: 'Save the node bundle',
          defaultPath: bundle.fileName,
          filters: [{ name: 'Node bundle', extensions: ['gz'] }],
        });
        if (r.canceled || !r.filePath) return null;
        // The dialog asked before replacing; a link at the path is replaced, never written through.
        await writeOutputFile(r.filePath, bundle.data);
        return r.filePath;
      },
      log: (line) => console.warn(`cni-doctor: ${line}`),
    });

    const webPreferences = secureWebPreferences(preload);
    // Electron has no getter for a window's webPreferences; the e2e reads them from here (main-process
    // global, out of the page's reach) and checks them against how the page behaves.
    (globalThis as Record<string, unknown>).__cniDoctorWebPreferences = webPreferences;
    win = new BrowserWindow({
      width: 1280,
      height: 860,
      minWidth: 720,
      minHeight: 480,
      show: false,
      title: 'cni-doctor',
      backgroundColor: '#f6f7f9',
      webPreferences,
    });
    const unsubscribe = progress.subscribe((e) => win?.webContents.send(PROGRESS_CHANNEL, e));
    win.on('closed', () => {
      unsubscribe();
      win = null;
      void backend.dispose();
    });
    win.once('ready-to-show', () => win?.show());
    if (!existsSync(indexHtml)) {
      dialog.showErrorBox(
        'cni-doctor',
        `The UI is not built: ${indexHtml} is missing (run npm run build).`,
      );
      app.quit();
      return;
    }
    await win.loadFile(indexHtml);
  });
}
