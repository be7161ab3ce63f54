import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Gives the calling thread the nice value `nice` if that lowers its priority (never raises it). On
 * Linux a nice value belongs to a thread, and a thread starts with the value of the thread that
 * creates it, so the threads this one starts from now on run at `nice` too. Elsewhere: nothing.
 */
export function lowerOwnPriority(nice: number) {
  let tid: number;
  try {
    // /proc/thread-self links to `<pid>/task/<tid>`: the kernel's id of this thread.
    tid = Number(path.basename(fs.readlinkSync('/proc/thread-self')));
  } catch {
    return;
  }
  if (nice > os.getPriority(tid)) os.setPriority(tid, nice);
}
