/**
 * UI benchmark: a Windows node bundle with 50,000 HNS endpoints, served by `serve`, loaded in
 * headless Chromium. Measures the time from navigation start to the first finding on screen
 * (target < 1.5 s), the Inventory's HNS endpoint table at that size (open + scroll frame times),
 * and the renderer's size (raw and gzip).
 *
 * Needs `npm run build` (dist/renderer) and /usr/bin/chromium. Run: npx tsx bench/ui-first-finding.bench.ts
 */
import { promises as fsp, readdirSync, readFileSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright';
import { createDispatcher } from '../app/shared-server/dispatch';
import { createEngineBackend } from '../app/shared-server/engine-backend';
import { ProgressBus } from '../app/shared-server/progress';
import { engineRepairs } from '../app/shared-server/engine-repairs';
import { startWebServer } from '../app/web/server';

const ROOT = path.resolve(
  import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname),
  '..',
);
const RENDERER = path.join(ROOT, 'dist', 'renderer');
const BASE_DEMO = path.join(ROOT, 'assets', 'demo', 'windows-antrea-containerd');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const FIRST_FINDING = '[data-testid="top-finding"] .cause-title';
export const TARGET_MS = 1500;

export interface UiBenchResult {
  endpoints: number;
  manifestBytes: number;
  /** The engine's scan of the bundle (done once by `serve --bundle` before the first request). */
  serverScanMs: number;
  /** Navigation start → first finding, server started at the same moment (scan still running). */
  coldFirstFindingMs: number;
  /** Navigation start → first finding, fresh browser context each run (no cache), scan already done. */
  firstFindingMs: { median: number; min: number; max: number; runs: number };
  meetsTarget: boolean;
  /**
   * Click on Inventory (its HNS endpoints tab chosen the moment it appears) → the first rows on
   * screen (filled, not placeholders), median over fresh browser contexts.
   */
  inventoryHnsMs: { median: number; min: number; max: number; runs: number };
  /** The same, measured inside the page from the click's time stamp to the filled rows. */
  inventoryHnsInPageMs: { median: number; min: number; max: number; runs: number };
  /** The floor: the same clicks on the same node with one HNS endpoint (no data volume). */
  inventoryFloorMs: { median: number; min: number; max: number; runs: number };
  inventoryFloorInPageMs: { median: number; min: number; max: number; runs: number };
  /** The largest response while the page loaded, showed Inventory and scrolled it: bytes on the wire and decoded. */
  largestResponse: { bytes: number; decodedBytes: number; url: string };
  /** The same among the API's answers only (the Inventory's windows, the scan, …). */
  largestApiResponse: { bytes: number; decodedBytes: number; url: string };
  /** Wheel-scrolling the 50,000-row table, then a jump to its end: frame intervals. */
  scrollFrameMs: { worst: number; p95: number; median: number; frames: number };
  renderer: {
    files: { name: string; bytes: number; gzip: number }[];
    jsGzip: number;
    cssGzip: number;
    totalBytes: number;
    totalGzip: number;
  };
}

function guid(n: number, salt: number): string {
  const a = ((n * 2654435761) ^ (salt * 40503)) >>> 0;
  const b = ((n * 40503) ^ (salt * 2654435761)) >>> 0;
  const h = (x: number, w: number): string => x.toString(16).padStart(8, '0').slice(0, w);
  return `${h(a, 8)}-${h(b, 4)}-4${h(a >>> 4, 3)}-a${h(b >>> 8, 3)}-${n.toString(16).padStart(12, '0')}`.toUpperCase();
}

/** v1 HNS endpoint objects as Get-HnsEndpoint returns them: mostly remote (overlay), some local, a few stale. */
export function makeEndpoints(count: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 50 === 0 ? 'stale' : i % 3 === 0 ? 'local' : 'remote';
    out.push({
      ID: guid(i, 2),
      Name: kind === 'remote' ? 'Ethernet' : `${guid(i, 9).replace(/-/g, '').toLowerCase()}_antrea`,
      IPAddress: `10.${64 + ((i >> 16) & 63)}.${(i >> 8) & 255}.${i & 255}`,
      MacAddress:
        `0E-2A-0A-${((i >> 16) & 255).toString(16).padStart(2, '0')}-${((i >> 8) & 255).toString(16).padStart(2, '0')}-${(i & 255).toString(16).padStart(2, '0')}`.toUpperCase(),
      // v1 State: 1 Created, 2 Attached, 3 AttachedSharing. Stale ones were created and never attached.
      State: kind === 'local' ? 3 : 1,
      IsRemoteEndpoint: kind === 'remote',
      VirtualNetwork: 'C08CB52A-1A3A-4A14-AD2B-4F5D3E1C2B10',
      VirtualNetworkName: 'antrea-hnsnetwork',
      PrefixLength: 24,
      ...(kind === 'local' && {
        Namespace: { ID: guid(i, 3) },
        SharedContainers: [guid(i, 4).toLowerCase()],
      }),
    });
  }
  return out;
}

async function makeBundle(dir: string, endpoints: number): Promise<number> {
  await fsp.cp(BASE_DEMO, dir, { recursive: true });
  const manifestPath = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(await fsp.readFile(manifestPath, 'utf8')) as Record<
    string,
    unknown
  > & { hns: Record<string, unknown> };
  manifest.hns = {
    ...manifest.hns,
    networks: [
      ...((manifest.hns.networks as unknown[]) ?? []),
      {
        ID: 'C08CB52A-1A3A-4A14-AD2B-4F5D3E1C2B10',
        Name: 'antrea-hnsnetwork',
        Type: 'Transparent',
        Subnets: [{ AddressPrefix: '10.64.0.0/10' }],
        State: 1,
      },
    ],
    endpoints: makeEndpoints(endpoints),
  };
  const text = JSON.stringify(manifest);
  await fsp.writeFile(manifestPath, text);
  return text.length;
}

function rendererSize(): UiBenchResult['renderer'] {
  const files: { name: string; bytes: number; gzip: number }[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir)) {
      const abs = path.join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs, `${rel}${name}/`);
      else {
        const data = readFileSync(abs);
        files.push({
          name: `${rel}${name}`,
          bytes: data.length,
          gzip: gzipSync(data, { level: 9 }).length,
        });
      }
    }
  };
  walk(RENDERER, '');
  const sum = (pred: (n: string) => boolean, k: 'bytes' | 'gzip'): number =>
    files.filter((f) => pred(f.name)).reduce((n, f) => n + f[k], 0);
  return {
    files,
    jsGzip: sum((n) => n.endsWith('.js'), 'gzip'),
    cssGzip: sum((n) => n.endsWith('.css'), 'gzip'),
    totalBytes: sum(() => true, 'bytes'),
    totalGzip: sum(() => true, 'gzip'),
  };
}

/** Records, inside the page, the moment the first finding is in the DOM (ms since navigation start). */
const OBSERVE = `(() => {
  const sel = ${JSON.stringify(FIRST_FINDING)};
  const check = () => {
    if (window.__firstFinding === undefined && document.querySelector(sel)) window.__firstFinding = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
})()`;

async function firstFinding(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(OBSERVE);
    await page.goto(url);
    await page.waitForSelector(FIRST_FINDING, { timeout: 60_000 });
    return await page.evaluate(
      () => (window as unknown as { __firstFinding: number }).__firstFinding,
    );
  } finally {
    await context.close();
  }
}

const ROW_FILLED = '.vbody [role="row"]:not([aria-busy])';

interface Sized {
  bytes: number;
  decodedBytes: number;
  url: string;
}

/** Bytes on the wire (compressed when the server compressed) and decoded, of every response. */
function recordSizes(page: Page): Promise<Sized>[] {
  const sizes: Promise<Sized>[] = [];
  page.on('requestfinished', (req) =>
    sizes.push(
      (async () => {
        const url = new URL(req.url()).pathname;
        try {
          const s = await req.sizes();
          const body = await (await req.response())?.body();
          return { bytes: s.responseBodySize, decodedBytes: body?.length ?? 0, url };
        } catch {
          return { bytes: 0, decodedBytes: 0, url };
        }
      })(),
    ),
  );
  return sizes;
}

const largest = async (sizes: Promise<Sized>[]): Promise<Sized> =>
  (await Promise.all(sizes)).reduce((a, b) => (b.decodedBytes > a.decodedBytes ? b : a), {
    bytes: 0,
    decodedBytes: 0,
    url: '',
  });

/**
 * Inside the page: when the click on Inventory happened (the event's own time stamp), and when
 * the HNS endpoint table first showed filled rows (a MutationObserver). The HNS endpoints tab is
 * chosen by the page itself the moment the tabs appear — a user's instant second click — so the
 * figure is one timeline from the click to the rows: the screen's code, the fetch, the JSON
 * parse and the render, without Playwright's own steps between two clicks.
 */
const INVENTORY_MARKS = `(() => {
  const m = (window.__inv = { downs: [] });
  document.addEventListener('pointerdown', (e) => m.downs.push(e.timeStamp), true);
  new MutationObserver(() => {
    const tab = document.getElementById('tab-hns-endpoints');
    if (m.tabs === undefined && tab) {
      m.tabs = performance.now();
      tab.click();
    }
    if (m.rows === undefined && document.querySelector('[aria-labelledby^="hns-endpoints-"] ${ROW_FILLED}'))
      m.rows = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true });
})()`;

/**
 * From the click on Inventory (its HNS endpoints tab chosen at once) to filled rows on screen:
 * wall-clock as Playwright sees it, and in the page.
 */
async function clickToRows(page: Page): Promise<{ wall: number; inPage: number }> {
  await page.waitForSelector(FIRST_FINDING);
  const t0 = Date.now();
  await page.locator('nav [data-screen="inventory"]').click();
  await page.waitForSelector(`[aria-labelledby^="hns-endpoints-"] ${ROW_FILLED}`);
  const wall = Date.now() - t0;
  const m = (await page.evaluate('window.__inv')) as { downs: number[]; rows: number };
  return { wall, inPage: m.rows - (m.downs[m.downs.length - 1] ?? NaN) };
}

type Spread = UiBenchResult['inventoryHnsMs'];
const spread = (xs: number[]): Spread => {
  const s = [...xs].sort((a, b) => a - b);
  const r = (n: number): number => Math.round(n);
  return {
    median: r(s[Math.floor(s.length / 2)] ?? NaN),
    min: r(s[0] ?? NaN),
    max: r(s[s.length - 1] ?? NaN),
    runs: s.length,
  };
};

async function clickToRowsRuns(
  browser: Browser,
  url: string,
  runs: number,
  sizes: Promise<Sized>[],
): Promise<{ wall: Spread; inPage: Spread }> {
  const wall: number[] = [];
  const inPage: number[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    try {
      const page = await context.newPage();
      await page.addInitScript(INVENTORY_MARKS);
      sizes.push(...recordSizes(page));
      await page.goto(url);
      const t = await clickToRows(page);
      wall.push(t.wall);
      inPage.push(t.inPage);
    } finally {
      await context.close();
    }
  }
  return { wall: spread(wall), inPage: spread(inPage) };
}

async function scrollFigures(
  browser: Browser,
  url: string,
  endpoints: number,
  sizes: Promise<Sized>[],
): Promise<UiBenchResult['scrollFrameMs']> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  try {
    const page = await context.newPage();
    // Registered before navigation, so responses finishing during the load are counted too.
    const mine = recordSizes(page);
    await page.addInitScript(INVENTORY_MARKS);
    await page.goto(url);
    await clickToRows(page);
    // Wheel-scroll the table the way a user does (400 px per notch, 80 notches) while a rAF loop
    // records every frame the page paints; then one jump to the end.
    const box = await page.locator('.vbody').boundingBox();
    if (!box) throw new Error('no table on screen');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // A string, not a function: tsx's keepNames would wrap a named function in a helper the page lacks.
    await page.evaluate(`(() => {
      window.__frames = [];
      window.__stop = false;
      const tick = (t) => { window.__frames.push(t); if (!window.__stop) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    })()`);
    for (let i = 0; i < 80; i++) {
      await page.mouse.wheel(0, 400);
      await page.waitForTimeout(16);
    }
    await page.evaluate(() => {
      const body = document.querySelector('.vbody') as HTMLElement;
      body.scrollTop = body.scrollHeight;
    });
    // The last window is fetched when it comes into view.
    await page.waitForSelector(`${ROW_FILLED}[aria-rowindex="${endpoints + 1}"]`);
    const stamps = await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __stop: boolean };
      w.__stop = true;
      return w.__frames;
    });
    const frames = stamps.slice(1).map((t, i) => t - (stamps[i] ?? t));
    frames.sort((a, b) => a - b);
    const pick = (q: number): number =>
      frames[Math.min(frames.length - 1, Math.floor(frames.length * q))] ?? 0;
    sizes.push(...mine);
    return { worst: pick(1), p95: pick(0.95), median: pick(0.5), frames: frames.length };
  } finally {
    await context.close();
  }
}

async function serveBundle(
  bundle: string,
): Promise<{ url: string; close: () => Promise<void>; scanned: Promise<number> }> {
  const progress = new ProgressBus();
  const t0 = Date.now();
  let done: (ms: number) => void = () => undefined;
  const scanned = new Promise<number>((r) => (done = r));
  progress.subscribe((e) => e.kind === 'scan' && e.done && done(Date.now() - t0));
  const backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: engineRepairs(),
    demosDir: undefined,
    initialBundle: bundle,
  });
  const server = await startWebServer({
    dispatcher: createDispatcher({ backend }),
    progress,
    staticDir: RENDERER,
  });
  return {
    url: server.url,
    scanned,
    close: async () => {
      await server.close();
      await backend.dispose();
    },
  };
}

/** The same clicks against the same node with a single HNS endpoint: what the UI costs anyway. */
async function floorRuns(
  browser: Browser,
  tmp: string,
  runs: number,
): Promise<{ wall: Spread; inPage: Spread }> {
  const bundle = path.join(tmp, 'one-endpoint-node');
  await makeBundle(bundle, 1);
  const small = await serveBundle(bundle);
  try {
    await small.scanned;
    return await clickToRowsRuns(browser, small.url, runs, []);
  } finally {
    await small.close();
  }
}

export async function runUiBench(
  opts: { endpoints?: number; runs?: number } = {},
): Promise<UiBenchResult> {
  const endpoints = opts.endpoints ?? 50_000;
  const runs = opts.runs ?? 5;
  statSync(path.join(RENDERER, 'index.html')); // throws with a clear path when the UI is not built
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'cni-doctor-uibench-'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const bundle = path.join(tmp, 'big-windows-node');
    const manifestBytes = await makeBundle(bundle, endpoints);
    // Start the browser's processes once, so runs measure the page, not Chromium's own start.
    const warm = await browser.newPage();
    await warm.goto('about:blank');
    await warm.close();

    // Cold: the page is opened the moment serve is up, while the engine still scans the bundle.
    const cold = await serveBundle(bundle);
    let coldFirstFindingMs: number;
    let serverScanMs: number;
    try {
      coldFirstFindingMs = await firstFinding(browser, cold.url);
      serverScanMs = await cold.scanned;
    } finally {
      await cold.close();
    }

    const warmServer = await serveBundle(bundle);
    try {
      await warmServer.scanned;
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push(await firstFinding(browser, warmServer.url));
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)] ?? NaN;
      const sizes: Promise<Sized>[] = [];
      const big = await clickToRowsRuns(browser, warmServer.url, runs, sizes);
      const scrollFrameMs = await scrollFigures(browser, warmServer.url, endpoints, sizes);
      const floor = await floorRuns(browser, tmp, runs);
      const inv = {
        inventoryHnsMs: big.wall,
        inventoryHnsInPageMs: big.inPage,
        inventoryFloorMs: floor.wall,
        inventoryFloorInPageMs: floor.inPage,
        scrollFrameMs,
        largestResponse: await largest(sizes),
        largestApiResponse: await largest(
          sizes.map((p) =>
            p.then((x) => (x.url.startsWith('/api/') ? x : { ...x, bytes: 0, decodedBytes: 0 })),
          ),
        ),
      };
      return {
        endpoints,
        manifestBytes,
        serverScanMs,
        coldFirstFindingMs,
        firstFindingMs: { median, min: times[0] ?? NaN, max: times[times.length - 1] ?? NaN, runs },
        meetsTarget: median < TARGET_MS,
        ...inv,
        renderer: rendererSize(),
      };
    } finally {
      await warmServer.close();
    }
  } finally {
    await browser.close();
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

function printResult(r: UiBenchResult): void {
  const kb = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `UI first finding: Windows bundle with ${r.endpoints.toLocaleString()} HNS endpoints (manifest ${(r.manifestBytes / 1048576).toFixed(1)} MiB)`,
  );
  console.log(
    `  engine scan of the bundle       ${r.serverScanMs.toFixed(0)} ms (serve --bundle does it at start)`,
  );
  console.log(
    `  nav → first finding, cold serve ${r.coldFirstFindingMs.toFixed(0)} ms (page opened while the scan runs)`,
  );
  console.log(
    `  nav → first finding, warm       median ${r.firstFindingMs.median.toFixed(0)} ms, min ${r.firstFindingMs.min.toFixed(0)}, max ${r.firstFindingMs.max.toFixed(0)} over ${r.firstFindingMs.runs} fresh contexts (target < ${TARGET_MS} ms: ${r.meetsTarget ? 'met' : 'NOT met'})`,
  );
  const f = r.scrollFrameMs;
  const inv = r.inventoryHnsMs;
  const floor = r.inventoryFloorMs;
  const ip = r.inventoryHnsInPageMs;
  console.log(
    `  click Inventory → HNS endpoints rows, in the page  median ${ip.median} ms (min ${ip.min}, max ${ip.max}) vs ${r.inventoryFloorInPageMs.median} ms on a 1-endpoint node (target ≤ 300 ms)`,
  );
  console.log(
    `  the same, wall-clock as Playwright sees it        median ${inv.median} ms (min ${inv.min}, max ${inv.max}) vs ${floor.median} ms on a 1-endpoint node`,
  );
  console.log(
    `  wheel-scrolling ${r.endpoints.toLocaleString()} rows: ${f.frames} frames, median ${f.median.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms, worst ${f.worst.toFixed(1)} ms`,
  );
  const big = r.largestResponse;
  console.log(
    `  largest response ${big.url}: ${(big.decodedBytes / 1024).toFixed(1)} KiB decoded, ${(big.bytes / 1024).toFixed(1)} KiB on the wire (target ≤ 2 MB)`,
  );
  const api = r.largestApiResponse;
  console.log(
    `  largest API response ${api.url}: ${(api.decodedBytes / 1024).toFixed(1)} KiB decoded, ${(api.bytes / 1024).toFixed(1)} KiB on the wire`,
  );
  console.log(
    `  renderer: ${kb(r.renderer.totalBytes)} raw, ${kb(r.renderer.totalGzip)} gzip (JS ${kb(r.renderer.jsGzip)}, CSS ${kb(r.renderer.cssGzip)})`,
  );
  for (const f of r.renderer.files)
    console.log(
      `    ${f.name.padEnd(34)} ${kb(f.bytes).padStart(10)} ${kb(f.gzip).padStart(10)} gzip`,
    );
}

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
) {
  printResult(await runUiBench());
}
