/** Middle value, rounded to 0.1. */
export const median = (values: number[]): number => Math.round([...values].sort((a, b) => a - b)[values.length >> 1]! * 10) / 10;

export interface Timing {
  /** Median wall-clock milliseconds. */
  wall: number;
  /** Median CPU milliseconds of this process: still meaningful when other work shares the cores. */
  cpu: number;
}

/** Runs `fn` `warmups` times to let the JIT settle, then `runs` times measured. */
export async function measure(fn: () => unknown, runs = 5, warmups = 1): Promise<Timing> {
  for (let i = 0; i < warmups; i++) await fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}
