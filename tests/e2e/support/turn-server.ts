import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from './own-server';

/**
 * A real TURN server (coturn's `turnserver`, from the system's packages) on loopback, for the
 * tests of WEBRTC_ICE_SERVERS: a move whose two tablets can reach each other only through it.
 */
export interface TurnServer {
  /** The setting as an operator writes it. */
  iceServers: string;
  /** The user the devices authenticate as: coturn's log names them for each allocation. */
  username: string;
  /** What coturn has logged so far. */
  log(): string;
  stop(): Promise<void>;
}

export async function startTurnServer(): Promise<TurnServer> {
  const port = await findFreePort();
  const username = `memento-${randomBytes(3).toString('hex')}`;
  const credential = randomBytes(12).toString('hex');
  // Relay ports from a range of this run's own, so two runs at once do not meet.
  const minPort = 40_000 + Math.floor(Math.random() * 200) * 100;
  // A pid file of its own, and no settings file (`-n`): never the machine's /etc/turnserver.conf.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'memento-turn-'));
  // Line by line: coturn buffers its log when it is not written to a terminal.
  const child = spawn(
    'stdbuf',
    [
      '-oL',
      '-eL',
      'turnserver',
      '-n',
      `--pidfile=${path.join(dir, 'turnserver.pid')}`,
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      `--listening-port=${port}`,
      `--min-port=${minPort}`,
      `--max-port=${minPort + 99}`,
      // Both tablets are on this machine: coturn refuses to relay to loopback peers unless told.
      '--allow-loopback-peers',
      '--lt-cred-mech',
      `--user=${username}:${credential}`,
      '--realm=memento.test',
      '--fingerprint',
      '--no-cli',
      '--no-tls',
      '--no-dtls',
      '--log-file=stdout',
      '--simple-log',
      '--verbose',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => (output += data.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 15_000;
  while (!new RegExp(`UDP listener opened on\\s*:\\s*127\\.0\\.0\\.1:${port}`).test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`turnserver did not start (is coturn installed?):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    iceServers: JSON.stringify([
      { urls: `turn:127.0.0.1:${port}?transport=udp`, username, credential },
    ]),
    username,
    log: () => output,
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
