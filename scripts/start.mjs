// `npm start`: builds the web app and the server when either is missing or older than its sources,
// then runs the built server (plain JavaScript) serving the web app and the API from one port.
import { SERVER_ENTRY, SERVER_SOURCES, buildServer, isBuildStale } from './build-server.mjs';
import { WEB_ENTRY, WEB_SOURCES, buildWeb } from './build-web.mjs';

if (isBuildStale(WEB_ENTRY, WEB_SOURCES)) {
  console.log('Building the web app…');
  try {
    buildWeb();
  } catch (error) {
    // Vite has already said what went wrong.
    console.error(error.message);
    process.exit(1);
  }
}

if (isBuildStale(SERVER_ENTRY, SERVER_SOURCES)) {
  await buildServer();
}

await import(SERVER_ENTRY);
