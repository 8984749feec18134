import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/**
 * The real server, built as `npm start` runs it (`dist/server/main.js`), in a child process, for what only a whole process shows:
 * that it stays up, what it writes to disk, what it logs at start-up.
 */
export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** undefined while it runs. */
  exitCode(): number | null | undefined;
  stop(): Promise<void>;
}

/**
 * A port nobody listens on, from the operating system: counting up from a fixed number let test
 * files in parallel workers (and this machine's own services, RabbitMQ on 5672) collide.
 */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts the built server on a free port. Between asking the system for the port and the server
 * listening on it, another process (a database connection's own end, say) can take it: that start
 * is tried again on another port, and any other failure is thrown as it is.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnFreePort(env);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startOnFreePort(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // The build that `npm start` runs; the global setup makes it fresh.
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', path.resolve('dist/server/main.js')],
    {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: baseUrl,
        SESSION_SECRET: 'test-session-secret-that-is-long-enough-000',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );

  // A first start creates the database (initdb in a child process), which takes several times as
  // long while the rest of the suite runs beside it as on a calm machine.
  const deadline = Date.now() + 50_000;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`server exited at start-up:\n${output}`);
    const status = await fetch(`${baseUrl}/api/health`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      // A server that never answered is not left running after the tests.
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    baseUrl,
    child,
    output: () => output,
    exitCode: () => exitCode,
    async stop() {
      if (exitCode === undefined) child.kill('SIGTERM');
      await exited;
    },
  };
}
