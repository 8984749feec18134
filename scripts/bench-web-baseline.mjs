// The bare baseline of `npm run bench:web`: the smallest React page Vite builds (a heading, a
// sentence and a button, rendered in the browser), served by a bare Fastify with compression, so
// the app's Lighthouse numbers can be read against what this machine gives any React page in the
// same run (Lighthouse's simulated throttling multiplies the CPU time it measures here).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import react from '@vitejs/plugin-react';
import Fastify from 'fastify';
import { build } from 'vite';

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="description" content="A bare React page." />
    <title>Baseline</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/main.jsx"></script>
  </body>
</html>
`;

const MAIN = `import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function Page() {
  const [count, setCount] = useState(0);
  return (
    <main style={{ fontFamily: 'system-ui', fontSize: 20, padding: 24 }}>
      <h1>Sign In</h1>
      <p>A bare React page, for comparison.</p>
      <button type="button" onClick={() => setCount(count + 1)}>Pressed {count} times</button>
    </main>
  );
}

createRoot(document.getElementById('root')).render(<StrictMode><Page /></StrictMode>);
`;

/** Builds the page under `directory` and serves it on `port`; answers how to stop it. */
export async function startBaseline(directory, port) {
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, 'index.html'), PAGE);
  writeFileSync(path.join(directory, 'main.jsx'), MAIN);
  const outDir = path.join(directory, 'dist');
  await build({
    root: directory,
    plugins: [react()],
    logLevel: 'warn',
    configFile: false,
    build: { outDir },
  });
  const app = Fastify();
  await app.register(compress);
  await app.register(fastifyStatic, { root: outDir });
  await app.listen({ port, host: '127.0.0.1' });
  return async () => {
    await app.close();
    rmSync(directory, { recursive: true, force: true });
  };
}
