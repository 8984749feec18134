// `node scripts/read-trace.mjs <file.trace.json> [min ms]`: the main thread's long tasks in a
// trace saved by `BENCH_TRACE_DIR=<dir> npm run bench:web`, each with what its JavaScript samples
// were spent in. A task is listed from 12.5 ms as measured (Lighthouse's simulated phone runs the
// CPU four times slower, so that is its 50 ms). Read a build made without minification
// (`vite build --minify false`), or the functions are single letters.
//
// For each task: its time, then the components (the function a React render called, found below
// `renderWithHooks` in the stack) and the functions the samples were in (self time), heaviest
// first.
import { readFileSync } from 'node:fs';

const [file, minArgument] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/read-trace.mjs <file.trace.json> [min ms]');
  process.exit(1);
}
const minMs = Number(minArgument ?? 12.5);
const trace = JSON.parse(readFileSync(file, 'utf8'));
const events = trace.traceEvents ?? trace;

// The page's renderer main thread: the one whose navigation started the load.
const navigation = events.find(
  (event) => event.name === 'navigationStart' && event.args?.data?.isLoadingMainFrame,
);
const pid = navigation?.pid;
const tid = navigation?.tid;
const onMain = (event) => event.pid === pid && event.tid === tid;

const navigationStart = navigation?.ts ?? 0;

// The samples: a Profile event opens a profile at its startTime (the trace's clock); its
// ProfileChunks, in order, carry new nodes and the samples as time deltas.
const nodes = new Map();
const samples = [];
const clocks = new Map();
for (const event of events) {
  if (event.pid !== pid) continue;
  if (event.name === 'Profile') clocks.set(event.id, event.args?.data?.startTime ?? event.ts);
  if (event.name !== 'ProfileChunk') continue;
  const data = event.args?.data ?? {};
  for (const node of data.cpuProfile?.nodes ?? []) {
    nodes.set(`${event.id}:${node.id}`, { ...node, chunk: event.id });
  }
  let clock = clocks.get(event.id) ?? event.ts;
  const ids = data.cpuProfile?.samples ?? [];
  for (let i = 0; i < ids.length; i += 1) {
    clock += data.timeDeltas?.[i] ?? 0;
    samples.push({ ts: clock, node: `${event.id}:${ids[i]}` });
  }
  clocks.set(event.id, clock);
}
samples.sort((a, b) => a.ts - b.ts);

const nameOf = (node) => {
  const frame = node?.callFrame;
  if (!frame) return '?';
  const where = frame.url ? frame.url.split('/').pop() : '';
  return `${frame.functionName || '(anonymous)'}${where ? ` ${where}:${frame.lineNumber + 1}` : ''}`;
};

/** The component a sample's stack was rendering: the frame just below renderWithHooks. */
function componentOf(nodeKey) {
  const stack = [];
  for (let node = nodes.get(nodeKey); node; node = nodes.get(`${node.chunk}:${node.parent}`)) {
    stack.push(node);
  }
  for (let i = stack.length - 1; i > 0; i -= 1) {
    if (stack[i].callFrame?.functionName === 'renderWithHooks') return nameOf(stack[i - 1]);
  }
  return null;
}

const tasks = events
  .filter(
    (event) =>
      onMain(event) &&
      event.ph === 'X' &&
      (event.name === 'RunTask' || event.name === 'ThreadControllerImpl::RunTask') &&
      event.dur / 1000 >= minMs,
  )
  .sort((a, b) => a.ts - b.ts);

const top = (counts, n) =>
  [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, ms]) => `${ms.toFixed(1)} ms ${name}`);

for (const task of tasks) {
  const start = (task.ts - navigationStart) / 1000;
  const end = task.ts + task.dur;
  const inside = samples.filter((sample) => sample.ts >= task.ts && sample.ts < end);
  const self = new Map();
  const components = new Map();
  for (let i = 0; i < inside.length; i += 1) {
    const next = inside[i + 1]?.ts ?? end;
    const ms = (next - inside[i].ts) / 1000;
    const name = nameOf(nodes.get(inside[i].node));
    self.set(name, (self.get(name) ?? 0) + ms);
    const component = componentOf(inside[i].node);
    if (component) components.set(component, (components.get(component) ?? 0) + ms);
  }
  // What the browser itself did: each trace event's own time, less its children's.
  const work = new Map();
  const children = events
    .filter(
      (event) =>
        onMain(event) &&
        event.ph === 'X' &&
        event.ts >= task.ts &&
        event.ts + event.dur <= end &&
        event !== task,
    )
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const open = [];
  for (const event of children) {
    while (open.length && open.at(-1).ts + open.at(-1).dur <= event.ts) open.pop();
    const parent = open.at(-1);
    if (parent) work.set(parent.name, (work.get(parent.name) ?? 0) - event.dur / 1000);
    work.set(event.name, (work.get(event.name) ?? 0) + event.dur / 1000);
    open.push(event);
  }
  console.log(`\n${start.toFixed(0)} ms: task of ${(task.dur / 1000).toFixed(1)} ms`);
  console.log(`  browser: ${top(work, 6).join(' · ')}`);
  if (components.size) console.log(`  components: ${top(components, 8).join(' · ')}`);
  console.log(`  self: ${top(self, 8).join(' · ')}`);
}
