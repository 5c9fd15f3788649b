/**
 * What the main thread did after the first paint in traces `bench/lighthouse.ts` kept
 * (LIGHTHOUSE_TRACE_DIR=dir; with LIGHTHOUSE_PROFILE=1 the trace also has V8's sampling profiler).
 * Lists every top-level task of 8 ms or more (observed, unthrottled: Lighthouse's simulation runs each
 * task 4× slower and counts what is over 50 ms as blocking, so 12.5 ms observed is the line), with what
 * ran inside it: scripts evaluated, functions called, timers, React's scheduler, style and layout; and,
 * with a profile, the functions that took the most of the task's time.
 * Run: npx tsx bench/lighthouse-tasks.ts dir/file.json ...
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { MainThreadTasks } from 'lighthouse/core/lib/tracehouse/main-thread-tasks.js';
import { TraceProcessor } from 'lighthouse/core/lib/tracehouse/trace-processor.js';

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args: Record<string, unknown> & { data?: Record<string, unknown> };
};
type TaskNode = {
  event: TraceEvent;
  children: TaskNode[];
  parent?: TaskNode;
  startTime: number;
  endTime: number;
  duration: number;
  selfTime: number;
  attributableURLs: string[];
  group: { id: string };
};

const short = (url: unknown) =>
  String(url ?? '')
    .replace(/^https?:\/\/[^/]+/, '')
    .replace(/^\/assets\//, '');

function nameOf(node: TaskNode): string {
  const data = node.event.args.data ?? {};
  const what =
    data.functionName || data.url
      ? `${String(data.functionName ?? '')} ${short(data.url)}${data.lineNumber !== undefined ? `:${data.lineNumber}` : ''}`
      : '';
  return `${node.event.name}${what ? ` (${what.trim()})` : ''}`;
}

/** The task's children worth naming, to two levels, biggest first. */
function children(node: TaskNode, depth: number, out: string[]): void {
  const big = node.children.filter((child) => child.duration >= 1).sort((a, b) => b.duration - a.duration);
  for (const child of big.slice(0, 6)) {
    out.push(`${'  '.repeat(depth)}${child.duration.toFixed(1)} ms ${nameOf(child)}`);
    if (depth < Number(process.env.DEPTH ?? 3)) children(child, depth + 1, out);
  }
}

/**
 * Self time per function from V8's sampling profiler (Profile and ProfileChunk events of the page's
 * renderer; node ids are per profile), between two times.
 */
function profile(events: TraceEvent[], pid: number) {
  type Frame = { name: string; url: string; line: number };
  const nodes = new Map<string, Frame>();
  const samples: { ts: number; frame: string }[] = [];
  const clocks = new Map<string, number>();
  for (const event of events) {
    // The samples come from the renderer's profiler thread, not the main thread itself.
    if (event.pid !== pid) continue;
    const id = String(event.id ?? '');
    if (event.name === 'Profile') {
      clocks.set(id, Number((event.args.data as { startTime?: number })?.startTime ?? 0));
    }
    if (event.name !== 'ProfileChunk') continue;
    const chunk = (event.args.data as { cpuProfile?: Record<string, unknown>; timeDeltas?: number[] }) ?? {};
    const cpu = chunk.cpuProfile as
      | { nodes?: { id: number; callFrame: Record<string, unknown> }[]; samples?: number[] }
      | undefined;
    for (const node of cpu?.nodes ?? []) {
      nodes.set(`${id}:${node.id}`, {
        name: String(node.callFrame.functionName || '(anonymous)'),
        url: short(node.callFrame.url),
        line: Number(node.callFrame.lineNumber ?? 0),
      });
    }
    const deltas = chunk.timeDeltas ?? [];
    let ts = clocks.get(id) ?? 0;
    (cpu?.samples ?? []).forEach((sample, i) => {
      ts += deltas[i] ?? 0;
      samples.push({ ts, frame: `${id}:${sample}` });
    });
    clocks.set(id, ts);
  }
  samples.sort((a, b) => a.ts - b.ts);
  return (startUs: number, endUs: number) => {
    const self = new Map<string, number>();
    let last: number | undefined;
    for (const sample of samples) {
      if (sample.ts < startUs || sample.ts > endUs) continue;
      const dt = last === undefined ? 0 : (sample.ts - last) / 1000;
      last = sample.ts;
      const frame = nodes.get(sample.frame);
      if (!frame) continue;
      const key = `${frame.name} ${frame.url}${frame.url ? `:${frame.line}` : ''}`;
      self.set(key, (self.get(key) ?? 0) + dt);
    }
    return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 12));
  };
}

for (const file of process.argv.slice(2)) {
  const trace = JSON.parse(await readFile(file, 'utf8')) as { traceEvents: TraceEvent[] };
  let processed: ReturnType<typeof TraceProcessor.processTrace>;
  let navigation: ReturnType<typeof TraceProcessor.processNavigation>;
  try {
    processed = TraceProcessor.processTrace(trace);
    navigation = TraceProcessor.processNavigation(processed);
  } catch (error) {
    // A run Lighthouse itself failed on (e.g. NO_NAVSTART, which the bench repeats).
    console.log(`\n== ${basename(file)}: not a usable trace (${(error as Error).message})`);
    continue;
  }
  const tasks = MainThreadTasks.getMainThreadTasks(
    processed.mainThreadEvents,
    processed.frames,
    processed.timestamps.traceEnd,
    processed.timestamps.timeOrigin,
  ) as TaskNode[];
  const fcp = navigation.timings.firstContentfulPaint ?? 0;
  const main = processed.mainThreadEvents[0];
  const selfTimes = profile(trace.traceEvents, main?.pid ?? 0);
  const timeOriginUs = processed.timestamps.timeOrigin;
  console.log(`\n== ${basename(file)}: FCP ${fcp.toFixed(0)} ms`);
  let blocking = 0;
  let cpuBlocking = 0;
  // The thread's CPU time (tdur) is what the task cost without other processes competing for the
  // core: on a loaded machine the wall time (what Lighthouse uses) grows, the CPU time much less.
  const cpuOf = (task: TaskNode) => Number((task.event as { tdur?: number }).tdur ?? 0) / 1000;
  for (const task of tasks.filter(
    (t) => !t.parent && t.startTime >= fcp - 1 && (t.duration >= 8 || cpuOf(t) >= 8),
  )) {
    const simulated = task.duration * 4;
    blocking += Math.max(0, simulated - 50);
    cpuBlocking += Math.max(0, cpuOf(task) * 4 - 50);
    console.log(
      `task at ${task.startTime.toFixed(0)} ms: ${task.duration.toFixed(1)} ms, CPU ${cpuOf(task).toFixed(1)} ms (×4 = ${simulated.toFixed(0)}, blocking ~${Math.max(0, simulated - 50).toFixed(0)}, by CPU time ~${Math.max(0, cpuOf(task) * 4 - 50).toFixed(0)}) ${task.attributableURLs.map(short).join(' ')}`,
    );
    const out: string[] = [];
    children(task, 1, out);
    for (const line of out) console.log(line);
    const top = selfTimes(timeOriginUs + task.startTime * 1000, timeOriginUs + task.endTime * 1000);
    if (top.length) {
      console.log('  profile (self ms):');
      for (const [name, ms] of top) if (ms >= 0.5) console.log(`    ${ms.toFixed(1)} ${name}`);
    }
  }
  console.log(
    `sum of (4× task − 50 ms) after FCP ≈ ${blocking.toFixed(0)} ms, by CPU time ≈ ${cpuBlocking.toFixed(0)} ms (Lighthouse's TBT is simulated)`,
  );
}
