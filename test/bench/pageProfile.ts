import type { Frame, Page } from 'playwright-core';

/** One node of a V8 CPU profile (the parts read here). */
interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Samples the CPU of the renderer `frame` runs in (its own session when it is an out-of-process frame, else the
 * page's) until the returned function is called, which says where the time went: the functions that took the most
 * time themselves, in ms. For finding the long tasks a bench reports (BIG_PAGE_PROFILE=1), not a figure.
 */
export async function profileFrame(page: Page, frame: Frame): Promise<() => Promise<string>> {
  const session = await page
    .context()
    .newCDPSession(frame)
    .catch(() => page.context().newCDPSession(page));
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 250 });
  await session.send('Profiler.start');
  return async () => {
    const { profile } = (await session.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    await session.detach();
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) {
      for (const child of node.children ?? []) {
        parent.set(child, node.id);
      }
    }
    const name = (id: number): string => {
      const frameOf = byId.get(id)?.callFrame;
      return frameOf
        ? `${frameOf.functionName || '(anonymous)'} ${frameOf.url.split('/').pop()?.slice(0, 40) ?? ''}:${frameOf.lineNumber}`
        : '?';
    };
    // Self time, and the time with callees (each function once per sample, however deep it recurses).
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      self.set(name(id), (self.get(name(id)) ?? 0) + ms);
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        seen.add(name(at));
      }
      for (const key of seen) {
        total.set(key, (total.get(key) ?? 0) + ms);
      }
    });
    const top = (map: Map<string, number>) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 30)
        .map(([key, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${key.slice(0, 160)}`)
        .join('\n');
    return `self time:\n${top(self)}\nwith callees:\n${top(total)}`;
  };
}

/**
 * What a layout had to do: its dirty layout objects of all, and the functions that forced it (innermost first) when
 * script asked for a size. The page's bundle is minified: methods keep their names (`slice`, `onScroll`), local
 * functions do not.
 */
function layoutOf(e: TraceEvent): string {
  const begin = e.name === 'Layout' ? e.args?.beginData : undefined;
  if (!begin) {
    return '';
  }
  const stack = (begin.stackTrace ?? []).map((frame) => frame.functionName || '(anonymous)').slice(0, 4);
  return (
    ` (${begin.dirtyObjects ?? '?'} of ${begin.totalObjects ?? '?'} objects` +
    `${stack.length ? `; forced by ${stack.join(' ← ')}` : ''})`
  );
}

/** The five longest tasks of `events`, each with the work in it that took over 3 ms (script named by its function). */
function longestTasks(events: TraceEvent[]): string {
  const spans = events.filter((e) => e.ph === 'X' && e.dur !== undefined);
  const tasks = spans
    .filter((e) => e.name === 'RunTask')
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
    .slice(0, 5);
  return tasks
    .map((task) => {
      const end = task.ts + (task.dur ?? 0);
      const inside = spans.filter(
        (e) =>
          e !== task &&
          e.tid === task.tid &&
          e.pid === task.pid &&
          e.ts >= task.ts &&
          e.ts < end &&
          (e.dur ?? 0) > 3000,
      );
      const lines = inside.map((e) => {
        const data = e.args?.data;
        const where =
          data?.functionName || data?.url
            ? ` ${data.functionName ?? ''} ${data.url?.split('/').pop() ?? ''}:${data.lineNumber ?? ''}`
            : '';
        return `      ${((e.dur ?? 0) / 1000).toFixed(0).padStart(5)} ms ${e.name}${where}${layoutOf(e)}`;
      });
      return [`  ${((task.dur ?? 0) / 1000).toFixed(0)} ms task`, ...lines].join('\n');
    })
    .join('\n');
}

/**
 * Starts what `mode` (a bench's profile variable) asks for: '1' the CPU profile of `frame`'s renderer, 'trace' the
 * browser's timeline; anything else nothing. Returns what stops it and says where the time went.
 */
export async function startProfile(
  mode: string | undefined,
  page: Page,
  frame: Frame,
): Promise<(() => Promise<string>) | undefined> {
  return mode === '1' ? profileFrame(page, frame) : mode === 'trace' ? traceTimeline(page) : undefined;
}

/** One event of a Chromium trace (the parts read here). */
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: {
    data?: { functionName?: string; url?: string; lineNumber?: number };
    /** A layout's: how many layout objects it had to lay out, of how many, and the script that forced it, if any. */
    beginData?: { dirtyObjects?: number; totalObjects?: number; stackTrace?: { functionName?: string }[] };
  };
}

/**
 * Records the browser's timeline until the returned function is called, which says which kinds of work took the
 * most time (total and longest, in ms): layout, style, paint, script. For finding long tasks, not a figure.
 */
export async function traceTimeline(page: Page): Promise<() => Promise<string>> {
  const browser = page.context().browser();
  if (!browser) {
    throw new Error('no browser to trace');
  }
  await browser.startTracing(page, {
    // The last: the script stack of a layout forced by script (a size asked for), named in the longest tasks.
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'disabled-by-default-devtools.timeline.stack',
    ],
  });
  return async () => {
    const buffer = await browser.stopTracing();
    const { traceEvents } = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] };
    const kinds = new Map<string, { total: number; longest: number; count: number }>();
    for (const event of traceEvents) {
      if (event.ph !== 'X' || event.dur === undefined) {
        continue;
      }
      const kind = kinds.get(event.name) ?? { total: 0, longest: 0, count: 0 };
      kind.total += event.dur / 1000;
      kind.longest = Math.max(kind.longest, event.dur / 1000);
      kind.count++;
      kinds.set(event.name, kind);
    }
    const byKind = [...kinds]
      .sort((a, b) => b[1].total - a[1].total)
      .slice(0, 25)
      .map(
        ([name, k]) =>
          `${k.total.toFixed(0).padStart(7)} ms total, ${k.longest.toFixed(0).padStart(5)} ms longest, ${String(k.count).padStart(6)}×  ${name}`,
      )
      .join('\n');
    return `${byKind}\nthe longest tasks, and what took over 3 ms in them:\n${longestTasks(traceEvents)}`;
  };
}
