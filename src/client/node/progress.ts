import type { Avatar } from '../types.ts';

const WIDTH = 30;

/**
 * A progress bar for a terminal (redrawn in place), or one line per change when the stream is not a
 * terminal, so that logs stay readable.
 */
export function progressBar(stream: NodeJS.WriteStream, label: string): { update(a: Avatar): void; end(): void } {
  let last = '';
  let drawn = false;
  return {
    update(a: Avatar) {
      const state = `${a.status} ${a.percent}%`;
      if (state === last) return;
      last = state;
      if (stream.isTTY) {
        const filled = Math.round((Math.max(0, Math.min(100, a.percent)) / 100) * WIDTH);
        stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(a.percent).padStart(3)}% ${a.status.padEnd(10)}`);
        drawn = true;
      } else {
        stream.write(`${label} ${state}\n`);
      }
    },
    end() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
