import fs from 'node:fs';

/**
 * Opt-in frame timing for benchmarks: BURROW_FRAME_LOG=FILE writes one line per event,
 *   key    <epoch ms> <the bytes Ink read, as JSON>
 *   render <epoch ms> <ms Ink spent building the frame>
 *   write  <epoch ms> <bytes of the frame written to the terminal>
 *   mem    <epoch ms> <rss heapUsed heapTotal external arrayBuffers> (bytes, every 2 s)
 * with high-resolution epoch times (performance.timeOrigin + performance.now(), comparable with
 * another process's). Unset, nothing is wrapped and nothing is measured.
 */
export interface FrameLog {
  /** The stdin to hand to Ink: read() notes when each key arrives. */
  stdin(stream: NodeJS.ReadStream): NodeJS.ReadStream;
  /** Wraps a write function: notes when each frame goes out. */
  write<A extends unknown[]>(write: (chunk: unknown, ...rest: A) => boolean): (chunk: unknown, ...rest: A) => boolean;
  /** Ink's onRender. */
  onRender(metrics: { renderTime: number }): void;
  flush(): void;
}

const now = () => performance.timeOrigin + performance.now();

export function createFrameLog(file: string | undefined): FrameLog | null {
  if (!file) return null;
  let fd: number;
  try {
    fd = fs.openSync(file, 'a');
  } catch {
    return null;
  }
  let lines: string[] = [];
  const flush = () => {
    if (!lines.length) return;
    const text = lines.join('');
    lines = [];
    try {
      fs.writeSync(fd, text);
    } catch {
      // the log is best effort
    }
  };
  setInterval(flush, 250).unref();
  // memory every 2 s (resident, JS heap, external, array buffers), for the memory benchmark
  setInterval(() => {
    const m = process.memoryUsage();
    lines.push(`mem\t${now().toFixed(3)}\t${m.rss} ${m.heapUsed} ${m.heapTotal} ${m.external} ${m.arrayBuffers}\n`);
  }, 2000).unref();
  process.on('exit', flush);
  return {
    stdin(stream) {
      return new Proxy(stream, {
        get(target, prop) {
          if (prop === 'read') {
            return (...args: unknown[]) => {
              const chunk: unknown = (target.read as (...a: unknown[]) => unknown).apply(target, args);
              if (chunk !== null) lines.push(`key\t${now().toFixed(3)}\t${JSON.stringify(String(chunk))}\n`);
              return chunk;
            };
          }
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
    write(write) {
      return (chunk, ...rest) => {
        const bytes = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk instanceof Uint8Array ? chunk.byteLength : 0;
        const ok = write(chunk, ...rest);
        lines.push(`write\t${now().toFixed(3)}\t${bytes}\n`);
        return ok;
      };
    },
    onRender(metrics) {
      lines.push(`render\t${now().toFixed(3)}\t${metrics.renderTime.toFixed(3)}\n`);
    },
    flush,
  };
}
