// `npm run dev`: the API with reload on change (port 5000) and Vite's dev server (port 5173),
// which proxies /api to the API.
import { spawn } from 'node:child_process';

const env = {
  ...process.env,
  NODE_ENV: 'development',
  APP_URL: process.env.APP_URL ?? 'http://localhost:5173',
  // Vite bundles its TypeScript config (scripts/build-web.mjs says why the note is silenced).
  VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
};
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'src/server/main.ts'], {
    stdio: 'inherit',
    env,
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit', env }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((child) =>
  child.on('exit', (code) => {
    if (code) {
      stop();
      process.exit(code);
    }
  }),
);
