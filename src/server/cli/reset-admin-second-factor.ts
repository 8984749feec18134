// `npm run admin:reset-2fa -- <username>`: for an admin who lost both their authenticator and
// their recovery codes. Whoever can run this on the server already holds the database, so it is
// the operator's way back in. Stop the server first when using the embedded database.
import { parseConfig } from '../config';
import { openDatabase } from '../db/client';
import { resetSecondFactorFromConsole } from '../modules/admin/second-factor.service';

async function main() {
  const username = process.argv[2];
  if (!username) {
    console.error('Usage: npm run admin:reset-2fa -- <username>');
    process.exit(2);
  }
  const config = parseConfig();
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
  });
  try {
    await database.migrate();
    const user = await resetSecondFactorFromConsole(database.db, username);
    if (!user) {
      console.error(`No admin is called ${username}.`);
      process.exitCode = 1;
      return;
    }
    console.log(
      `${user.username} is signed out and will set up an authenticator app on their next visit to /admin.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error('Could not reset the second factor:', error);
  process.exit(1);
});
