import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config';
import { FIRST_PAINT_SCRIPT_HASH } from '../../src/server/plugins/web-app';
import { BANNER_POSTER, CONFIG_PLACEHOLDER } from '../../src/shared/domain/first-paint';
import { buildTestApp, TestDevice, useTestApp } from '../setup/app';

const t = useTestApp();

describe('GET /api/health', () => {
  it('checks the database, without a device header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('sends security headers with a CSP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('GET /api/config', () => {
  it('says what is configured and nothing more', async () => {
    const device = await TestDevice.create(t.app);
    expect((await device.get('/api/config')).json()).toEqual({
      analyticsScriptUrl: null,
      donationUrl: null,
      sourceCodeUrl: null,
      billingEnabled: false,
      externalProviders: [],
    });
  });
});

describe('bad requests', () => {
  /** A sign-in whose body is sent as written, with this content type. */
  async function postRawSignIn(payload: string, contentType: string) {
    const device = await TestDevice.create(t.app);
    return device.request({
      method: 'POST',
      url: '/api/login',
      payload,
      headers: { 'content-type': contentType },
    });
  }

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found' });
  });

  it('answers a non-JSON body with 415', async () => {
    const res = await postRawSignIn('username=a&password=b', 'application/x-www-form-urlencoded');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Please send the request as JSON.',
    });
  });

  it('answers broken JSON with 400 and a plain message', async () => {
    const res = await postRawSignIn('{"username": ', 'application/json');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION',
      message: 'The request body is not valid JSON.',
    });
  });

  it('refuses a body over the size limit with 413', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/login', { username: 'a', password: 'x'.repeat(70_000) });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a state-changing call from another origin', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/logout', {}, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ORIGIN_MISMATCH');
    const same = await device.post('/api/logout', {}, { origin: 'http://localhost:5000' });
    expect(same.statusCode).toBe(200);
  });

  it('tells a page of its own, opened by another name, where Memento is set up to be opened', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/device/register',
      payload: { fingerprint: 'Mozilla/5.0 (test)|1280x800|24|en-GB|0|Linux' },
      headers: { host: '192.168.1.20:5000', origin: 'http://192.168.1.20:5000' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 'ORIGIN_MISMATCH',
      message:
        'This Memento is set up to be opened at http://localhost:5000. Please open it there.',
    });
    // Another website naming our host in its own address is still only another website.
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/device/register',
      payload: { fingerprint: 'Mozilla/5.0 (test)|1280x800|24|en-GB|0|Linux' },
      headers: { host: 'localhost:5000', origin: 'https://localhost.evil.example' },
    });
    expect(foreign.json().message).toBe('This request came from another website and was refused.');
  });
});

describe('serving the web app', () => {
  it('answers client routes with index.html, caches hashed assets for a year, and 404s a missing asset', async () => {
    const webDir = mkdtempSync(path.join(os.tmpdir(), 'memento-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Memento</title>');
    writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log("hi")');
    const web = await buildTestApp({ webDir });
    try {
      const home = await web.app.inject({ method: 'GET', url: '/' });
      expect(home.statusCode).toBe(200);
      expect(home.body).toContain('<title>Memento</title>');

      const page = await web.app.inject({ method: 'GET', url: '/auth?mode=community' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect(page.body).toContain('<title>Memento</title>');

      const asset = await web.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
      expect(asset.body).toBe('console.log("hi")');
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // Never asked again: no validators, no ranges.
      expect(asset.headers.etag).toBeUndefined();
      expect(asset.headers['last-modified']).toBeUndefined();
      expect(asset.headers['accept-ranges']).toBeUndefined();
      // A script is no document: it goes without the page's policies, not without the ones
      // that keep it a script for this origin only.
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
      expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(asset.headers['content-security-policy']).toBeUndefined();
      expect(asset.headers['x-frame-options']).toBeUndefined();
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
      // A worker runs under the policy its own script arrives with.
      const worker = await web.app.inject({
        method: 'GET',
        url: '/assets/backup.worker-abc123.js',
      });
      expect(worker.headers['content-security-policy']).toContain("default-src 'self'");
      expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');

      writeFileSync(path.join(webDir, 'assets', 'app-rebuilt456.js'), 'console.log("new")');
      // Asked again with its ETag (pages are revalidated on every visit): 304, no body. A new
      // build's shell has another ETag and comes whole.
      const etag = page.headers.etag as string;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      const revisit = () =>
        web.app.inject({
          method: 'GET',
          url: '/auth?mode=community',
          headers: { 'if-none-match': etag },
        });
      const again = await revisit();
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Memento 2</title>');
      const changed = await revisit();
      expect(changed.statusCode).toBe(200);
      expect(changed.body).toContain('<title>Memento 2</title>');
      expect(changed.headers.etag).not.toBe(etag);

      const rebuilt = await web.app.inject({ method: 'GET', url: '/assets/app-rebuilt456.js' });
      expect(rebuilt.body).toBe('console.log("new")');

      const missing = await web.app.inject({ method: 'GET', url: '/assets/app-old999.js' });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['content-type']).toContain('application/json');
      // Whatever else asks under /assets/ is answered with every header.
      const other = await web.app.inject({ method: 'GET', url: '/assets/../index.html' });
      expect(other.headers['content-security-policy']).toContain("default-src 'self'");
    } finally {
      await web.close();
    }
  });
});

describe('a rebuild under a running server', () => {
  it('serves the old build or the new one, never an empty folder', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'memento-dist-'));
    const live = path.join(dist, 'web');
    mkdirSync(live);
    writeFileSync(path.join(live, 'index.html'), '<title>build 0</title>');
    const web = await buildTestApp({ webDir: live });
    // Another process builds 100 times over, as `npm run build` beside a running server does.
    const builds = 100;
    const builder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
          import { mkdirSync, writeFileSync } from 'node:fs';
          import path from 'node:path';
          const { replaceDirectory } = await import(${JSON.stringify(
            pathToFileURL(path.resolve('scripts/build-web.mjs')).href,
          )});
          const [dist, builds] = [process.argv[1], Number(process.argv[2])];
          for (let build = 1; build <= builds; build += 1) {
            const next = path.join(dist, '.web-next');
            mkdirSync(path.join(next, 'assets'), { recursive: true });
            writeFileSync(path.join(next, 'assets', 'app-' + build + '.js'), 'x'.repeat(200000));
            writeFileSync(path.join(next, 'index.html'), '<title>build ' + build + '</title>');
            replaceDirectory(next, path.join(dist, 'web'));
          }
        `,
        dist,
        String(builds),
      ],
      { stdio: 'inherit' },
    );
    const finished = new Promise<number | null>((resolve) => builder.on('exit', resolve));
    let isBuilding = true;
    void finished.then(() => (isBuilding = false));
    try {
      const answers: string[] = [];
      while (isBuilding) {
        const page = await web.app.inject({ method: 'GET', url: '/recipients' });
        answers.push(`${page.statusCode} ${page.body}`);
      }
      expect(await finished).toBe(0);
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.filter((answer) => !/^200 <title>build \d+<\/title>$/.test(answer))).toEqual(
        [],
      );
      const last = await web.app.inject({ method: 'GET', url: '/recipients' });
      expect(last.body).toBe(`<title>build ${builds}</title>`);
    } finally {
      await web.close();
    }
  });
});

describe('serving the first screens rendered at build time', () => {
  function writeWebBuild(): string {
    const webDir = mkdtempSync(path.join(os.tmpdir(), 'memento-web-'));
    mkdirSync(path.join(webDir, 'prerendered'), { recursive: true });
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Shell</title>');
    const page = (words: string) =>
      `<!doctype html><div id="root" data-prerendered-page="/auth">${words}</div>${CONFIG_PLACEHOLDER}`;
    writeFileSync(path.join(webDir, 'prerendered', 'auth.html'), page('Sign In'));
    writeFileSync(
      path.join(webDir, 'prerendered', 'auth.analytics.html'),
      page('Sign In, counted'),
    );
    writeFileSync(
      path.join(webDir, 'prerendered', 'manifest.json'),
      JSON.stringify({
        pages: {
          '/': { withoutAnalytics: 'auth.html', withAnalytics: 'auth.analytics.html' },
          '/auth': { withoutAnalytics: 'auth.html', withAnalytics: 'auth.analytics.html' },
        },
      }),
    );
    return webDir;
  }

  it("sends a visitor the rendered page with this installation's config, anyone else the app", async () => {
    const web = await buildTestApp({ webDir: writeWebBuild() });
    try {
      const visitor = await web.app.inject({ method: 'GET', url: '/auth' });
      expect(visitor.statusCode).toBe(200);
      expect(visitor.headers['content-type']).toContain('text/html');
      expect(visitor.headers.vary).toContain('Cookie');
      expect(visitor.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect(visitor.headers['content-security-policy']).toContain(FIRST_PAINT_SCRIPT_HASH);
      expect(visitor.body).toContain('Sign In');
      expect(visitor.body).not.toContain(CONFIG_PLACEHOLDER);
      expect(visitor.body).toContain(
        '<script type="application/json" id="memento-config">{"analyticsScriptUrl":null,',
      );

      // `/` shows a visitor the sign-in page; the browser then names it /auth.
      const home = await web.app.inject({ method: 'GET', url: '/' });
      expect(home.body).toContain('data-prerendered-page="/auth"');

      // The rendered page revalidates with its ETag too.
      const revisit = await web.app.inject({
        method: 'GET',
        url: '/auth',
        headers: { 'if-none-match': visitor.headers.etag as string },
      });
      expect(revisit.statusCode).toBe(304);

      // Signed in (or once was): the app decides, as before.
      const member = await web.app.inject({
        method: 'GET',
        url: '/',
        cookies: { memento_session: 'anything' },
      });
      expect(member.body).toBe('<!doctype html><title>Shell</title>');
      expect(member.headers.vary).toContain('Cookie');

      // Another view of the page than the one rendered.
      const register = await web.app.inject({ method: 'GET', url: '/auth?mode=register' });
      expect(register.body).toBe('<!doctype html><title>Shell</title>');

      const file = await web.app.inject({ method: 'GET', url: '/prerendered/manifest.json' });
      expect(file.statusCode).toBe(404);
    } finally {
      await web.close();
    }
  });

  it('names the welcome banner’s picture in the head of the dashboard it sends with a session cookie', async () => {
    const webDir = writeWebBuild();
    writeFileSync(
      path.join(webDir, 'index.html'),
      '<html><head><title>Shell</title></head></html>',
    );
    const web = await buildTestApp({ webDir });
    const poster = `<link rel="preload" as="image" href="${BANNER_POSTER}" fetchpriority="high">`;
    try {
      const dashboard = await web.app.inject({
        method: 'GET',
        url: '/',
        cookies: { memento_session: 'anything' },
      });
      expect(dashboard.body).toBe(`<html><head><title>Shell</title>${poster}</head></html>`);
      // Another signed-in page, and a visitor's front door, have no such picture.
      const recipients = await web.app.inject({
        method: 'GET',
        url: '/recipients',
        cookies: { memento_session: 'anything' },
      });
      expect(recipients.body).not.toContain(BANNER_POSTER);
      const visitor = await web.app.inject({ method: 'GET', url: '/' });
      expect(visitor.body).not.toContain(BANNER_POSTER);
    } finally {
      await web.close();
    }
  });

  it('sends the page whose cookie banner mentions analytics when analytics is configured', async () => {
    const web = await buildTestApp({
      webDir: writeWebBuild(),
      env: { ANALYTICS_SCRIPT_URL: 'https://stats.example/script.js' },
    });
    try {
      const visitor = await web.app.inject({ method: 'GET', url: '/auth' });
      expect(visitor.body).toContain('Sign In, counted');
      expect(visitor.body).toContain('"analyticsScriptUrl":"https://stats.example/script.js"');
    } finally {
      await web.close();
    }
  });
  it('sends the app itself when a sign-in provider is set up (the rendered page has no buttons)', async () => {
    const web = await buildTestApp({
      webDir: writeWebBuild(),
      env: {
        OIDC_ISSUER: 'https://id.care-home.example',
        OIDC_CLIENT_ID: 'memento',
        OIDC_CLIENT_SECRET: 'a-client-secret',
        OIDC_NAME: 'Care Home Login',
      },
    });
    try {
      const visitor = await web.app.inject({ method: 'GET', url: '/auth' });
      expect(visitor.body).toBe('<!doctype html><title>Shell</title>');
      const device = await TestDevice.create(web.app);
      expect((await device.get('/api/config')).json().externalProviders).toEqual([
        { id: 'oidc', name: 'Care Home Login' },
      ]);
    } finally {
      await web.close();
    }
  });
});

describe('configuration', () => {
  it('fails fast naming each bad variable', () => {
    expect(() =>
      parseConfig({ PORT: 'eighty', APP_URL: 'not a url', ADMIN_EMAIL: 'nope' }),
    ).toThrowError(/PORT[\s\S]*APP_URL[\s\S]*ADMIN_EMAIL/);
  });

  it('has working defaults', () => {
    expect(parseConfig({})).toMatchObject({
      PORT: 5000,
      HOST: '127.0.0.1',
      APP_URL: 'http://localhost:5000',
      DATA_DIR: './data',
    });
  });

  it('takes the public address from the port when none is given', () => {
    // Started on another port, the server must still accept its own pages' requests.
    expect(parseConfig({ PORT: '5299' }).APP_URL).toBe('http://localhost:5299');
    expect(parseConfig({ PORT: '5299', APP_URL: '' }).APP_URL).toBe('http://localhost:5299');
    expect(parseConfig({ PORT: '5299', APP_URL: 'https://memento.example.org' }).APP_URL).toBe(
      'https://memento.example.org',
    );
  });
});
