// `npm run check:licences`: every package the running product ships with (production dependencies,
// however deep) is under a licence that lets anyone run, change and host Memento without sharing
// their own code. A package outside the list fails CI until someone decides about it here.
import { execFileSync } from 'node:child_process';

const PERMISSIVE = new Set([
  'MIT',
  'MIT-0',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'Unlicense',
]);

/**
 * Packages allowed under a licence outside the list, each with the reason. MPL-2.0 is copyleft
 * per file only: lightningcss compiles the stylesheets at build time and is used unchanged.
 */
const ALLOWED_PACKAGES = new Map([
  ['lightningcss', 'MPL-2.0'],
  ['lightningcss-linux-x64-gnu', 'MPL-2.0'],
  ['lightningcss-linux-arm64-gnu', 'MPL-2.0'],
  ['lightningcss-darwin-arm64', 'MPL-2.0'],
  ['lightningcss-darwin-x64', 'MPL-2.0'],
]);

/** 'MIT', '(MIT OR Apache-2.0)', { type: 'MIT' } or [{ type: 'MIT' }] as a list of choices. */
function licencesOf(pkg) {
  const raw = pkg.license ?? pkg.licenses;
  const text = Array.isArray(raw)
    ? raw.map((entry) => entry.type ?? entry).join(' OR ')
    : typeof raw === 'object' && raw !== null
      ? raw.type
      : raw;
  if (typeof text !== 'string' || text.trim() === '') return [];
  // An 'A AND B' expression needs both; treated as one choice that must be wholly permissive.
  return text
    .replace(/[()]/g, '')
    .split(/\s+OR\s+/i)
    .map((choice) => choice.split(/\s+AND\s+/i).map((part) => part.trim()));
}

function isAllowed(pkg) {
  const choices = licencesOf(pkg);
  if (choices.some((parts) => parts.every((part) => PERMISSIVE.has(part)))) return true;
  const allowed = ALLOWED_PACKAGES.get(pkg.name);
  return allowed !== undefined && choices.some((parts) => parts.join(' AND ') === allowed);
}

const shipped = JSON.parse(
  execFileSync('npm', ['query', '.prod'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
).filter((pkg) => pkg.location !== '');

const refused = shipped.filter((pkg) => !isAllowed(pkg));
if (refused.length > 0) {
  console.error(
    'Production dependencies under a licence not on the list (scripts/check-licences.mjs):',
  );
  for (const pkg of refused) {
    console.error(
      `  ${pkg.name}@${pkg.version}: ${JSON.stringify(pkg.license ?? pkg.licenses ?? 'none')}`,
    );
  }
  process.exit(1);
}
console.log(`Licences: all ${shipped.length} production packages are permissively licensed.`);
