import { ConfigError, parseConfig } from './config';
import { buildApp } from './app';
import { securePrivateDataDir, tightenDataDir } from './lib/data-dir';

const DATA_DIR_CHECK_INTERVAL_MS = 10 * 60_000;

async function main() {
  let config;
  try {
    config = parseConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // Everything the server writes under DATA_DIR (PGlite's files, mail, videos) is for its own
  // user only: PGlite would otherwise create its database files 0666.
  process.umask(0o077);
  const dataDir = securePrivateDataDir(config.DATA_DIR);

  const app = await buildApp({ config });
  // PGlite creates its files 0666 whatever the umask: close them now and as it adds more. The
  // folder itself is 0700, so nothing in between is reachable by another account.
  const tighten = () => {
    try {
      tightenDataDir(config.DATA_DIR);
    } catch (error) {
      app.log.warn({ err: error }, 'could not tighten DATA_DIR permissions');
    }
  };
  tighten();
  setInterval(tighten, DATA_DIR_CHECK_INTERVAL_MS).unref();
  if (dataDir.loosened.length > 0) {
    app.log.warn(
      { count: dataDir.loosened.length, examples: dataDir.loosened.slice(0, 5) },
      `DATA_DIR (${config.DATA_DIR}) had files other accounts on this machine could read or change; they are now readable by the server's user only`,
    );
  }
  // The last line of defence: a failure that reached no handler is a bug to log, never a reason
  // to take every user's server down (the database, Redis or SMTP going away must not).
  process.on('unhandledRejection', (reason) => {
    app.log.error({ err: reason }, 'unhandled rejection');
  });
  let isClosing = false;
  const shutdown = async (signal: string) => {
    if (isClosing) return;
    isClosing = true;
    app.log.info(`${signal} received, shutting down`);
    const forceExit = setTimeout(() => process.exit(1), 10_000);
    forceExit.unref();
    await app.close();
    tightenDataDir(config.DATA_DIR);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`Memento is ready at ${config.APP_URL}`);
}

main().catch((error) => {
  console.error('Memento failed to start:', error);
  process.exit(1);
});
