// Drives Firefox for the engine tests and the benchmark (tests/engines/drivers.py): npm puppeteer-core over WebDriver
// BiDi, so Debian's own firefox-esr needs no geckodriver and no patched build.
//
// One browser per process. Requests come on stdin, one JSON object a line: {id, op, ...}; each gets one reply line
// on stdout: {id, ok: true, value} or {id, ok: false, error}. Ops:
//   launch {executablePath, userDataDir, headless}   -> browser version
//   goto {url, timeoutMs}                             -> the URL the page shows after the load
//   reload {timeoutMs}
//   evaluate {fn, arg}   fn: a JS function's source, called with arg in the page (a returned promise is awaited)
//   click {selector}     a real mouse click in the middle of the first match (scrolled into view)
//   press {selector, key}  focus the first match, then a real key press
//   viewport {width, height}  the page's size in CSS pixels (a phone's, a tablet's)
//   close
// A dialog (the "show the solution?" confirm) is accepted.

import puppeteer from "puppeteer-core";
import readline from "node:readline";

let browser = null;
let page = null;

const ops = {
  async launch({ executablePath, userDataDir, headless = true }) {
    browser = await puppeteer.launch({
      browser: "firefox",
      executablePath,
      userDataDir,
      headless,
      protocolTimeout: 300_000,
      // no updates, telemetry or first-run pages: nothing but the site may use the network or the cores
      extraPrefsFirefox: {
        "app.update.auto": false,
        "browser.shell.checkDefaultBrowser": false,
        "datareporting.policy.dataSubmissionEnabled": false,
        "toolkit.telemetry.enabled": false,
      },
    });
    page = (await browser.pages())[0] || (await browser.newPage());
    page.on("dialog", (dialog) => dialog.accept().catch(() => {}));
    return await browser.version();
  },
  async goto({ url, timeoutMs = 120_000 }) {
    await page.goto(url, { waitUntil: "load", timeout: timeoutMs });
    return page.url();
  },
  async reload({ timeoutMs = 120_000 }) {
    await page.reload({ waitUntil: "load", timeout: timeoutMs });
    return page.url();
  },
  async evaluate({ fn, arg }) {
    // a string is evaluated as an expression (BiDi script.evaluate, which the page's CSP does not govern)
    return await page.evaluate(`(${fn})(${JSON.stringify(arg === undefined ? null : arg)})`);
  },
  async click({ selector }) {
    await page.click(selector);
    return null;
  },
  async press({ selector, key }) {
    await page.focus(selector);
    await page.keyboard.press(key);
    return null;
  },
  async viewport({ width, height }) {
    await page.setViewport({ width, height });
    return null;
  },
  async close() {
    if (browser) await browser.close();
    browser = null;
    return null;
  },
};

const lines = readline.createInterface({ input: process.stdin });
let chain = Promise.resolve();
lines.on("line", (line) => {
  chain = chain.then(async () => {
    let request;
    try {
      request = JSON.parse(line);
    } catch {
      return;
    }
    let reply;
    try {
      const op = ops[request.op];
      if (!op) throw new Error(`unknown op ${request.op}`);
      const value = await op(request);
      reply = { id: request.id, ok: true, value: value === undefined ? null : value };
    } catch (error) {
      reply = { id: request.id, ok: false, error: String((error && error.stack) || error) };
    }
    process.stdout.write(`${JSON.stringify(reply)}\n`);
  });
});
lines.on("close", () => {
  chain.then(() => (browser ? browser.close() : null)).finally(() => process.exit(0));
});
