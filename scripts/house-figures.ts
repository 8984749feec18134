// `npm run house:figures`: the sizes a newcomer feels when reading the code — functions over 120
// lines, source files over 400, clock reads on the server outside its clock, web imports that
// cross a wall (into a feature from another feature or a shared part), decision records over 500
// words. Prints each figure with the worst offenders, so a change can be judged before and after.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const rel = (file: string) => path.relative(root, file);

function walk(dir: string, keep: (file: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return walk(full, keep);
    return keep(full) ? [full] : [];
  });
}

const isSource = (file: string) => /\.(ts|tsx|mjs)$/.test(file) && !file.endsWith('.d.ts');
const sources = [
  ...walk(path.join(root, 'src'), isSource),
  ...walk(path.join(root, 'scripts'), isSource),
  path.join(root, 'vite.config.ts'),
];

interface Sized {
  where: string;
  lines: number;
}

function functionsOf(file: string): Sized[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Sized[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name =
        (node.name && ts.isIdentifier(node.name) && node.name.text) ||
        (ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)
          ? node.parent.name.text
          : '(anonymous)');
      found.push({ where: `${rel(file)}:${start + 1} ${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function report(title: string, items: Sized[], limit: number) {
  const over = items.filter((item) => item.lines > limit).sort((a, b) => b.lines - a.lines);
  console.log(`\n${title}: ${over.length}`);
  for (const item of over.slice(0, 15)) console.log(`  ${item.lines}\t${item.where}`);
}

report('Functions over 120 lines', sources.flatMap(functionsOf), 120);
report(
  'Source files over 400 lines',
  sources.map((file) => ({
    where: rel(file),
    lines: readFileSync(file, 'utf8').split('\n').length,
  })),
  400,
);

const serverFiles = walk(path.join(root, 'src/server'), isSource);
const clockReads = serverFiles
  .filter((file) => !file.endsWith(path.join('lib', 'clock.ts')))
  .flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        /Date\.now\(\)|new Date\(\)/.test(line) && !line.trim().startsWith('//')
          ? [{ where: `${rel(file)}:${index + 1}`, lines: 1 }]
          : [],
      ),
  );
console.log(
  `\nClock reads on the server outside the clock (Date.now(), new Date()): ${clockReads.length}`,
);

const webFiles = walk(path.join(root, 'src/web'), isSource);
const deepImports = webFiles.flatMap((file) => {
  const own = /src\/web\/features\/([^/]+)\//.exec(file)?.[1];
  return [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].flatMap(([, spec = '']) => {
    const target = spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : spec;
    const match = /(?:src\/web|@web)\/features\/([^/]+)\/(.+)$/.exec(target);
    // Pages and the app compose features and may import any feature file; a feature or a shared
    // part (components/, lib/) importing a feature crosses a wall.
    const isShared = /src\/web\/(components|lib)\//.test(file);
    if (!match || match[1] === own || (!own && !isShared)) return [];
    return [{ where: `${rel(file)} → features/${match[1]}/${match[2]}`, lines: 1 }];
  });
});
console.log(
  `Web imports across a wall (a feature or shared part importing a feature): ${deepImports.length}`,
);

const records = walk(path.join(root, 'docs/decisions'), (file) => /\/\d{3}-.*\.md$/.test(file));
report(
  'Decision records over 500 words',
  records.map((file) => ({
    where: rel(file),
    lines: readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).length,
  })),
  500,
);
