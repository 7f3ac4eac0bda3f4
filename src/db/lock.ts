import fs from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The data directory ${dir} is in use by another process (pid ${pid}). ` +
        `Stop that process, or point SVC_DATA_DIR at another directory. ` +
        `For several processes on one database, use PostgreSQL (DATABASE_URL).`,
    );
    this.name = "DataDirLockedError";
  }
}

/**
 * Who a process is, beyond its pid (which the system reuses): its start time in clock ticks since boot
 * (/proc/<pid>/stat, field 22) and the boot it belongs to (/proc/sys/kernel/random/boot_id). Undefined
 * where /proc is not there (macOS, Windows) or the process is gone.
 */
export interface ProcessIdentity {
  start: string;
  boot: string;
}

function readBootId(): string | undefined {
  try {
    return fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The start time field of /proc/<pid>/stat: the command name (field 2) may hold spaces and parentheses. */
function readStartTicks(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields from the third on: the start time, field 22, is the 20th of them.
    const start = fields[19];
    return start && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

export function processIdentity(pid: number): ProcessIdentity | undefined {
  const start = readStartTicks(pid);
  const boot = readBootId();
  return start && boot ? { start, boot } : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The lock file's text: "<pid> <start ticks> <boot id>", or the pid alone where /proc is not there. */
function lockText(pid: number): string {
  const self = processIdentity(pid);
  return self ? `${pid} ${self.start} ${self.boot}\n` : `${pid}\n`;
}

// USER_HZ: the unit of /proc's start times, 100 on every architecture Linux runs on.
const TICKS_PER_SECOND = 100;

/** When `pid` started, in ms since the epoch (Linux), from the boot time and its start ticks. */
function startedAtMs(pid: number): number | undefined {
  const ticks = readStartTicks(pid);
  try {
    const boot = /^btime (\d+)$/m.exec(fs.readFileSync("/proc/stat", "utf8"))?.[1];
    return ticks && boot ? Number(boot) * 1000 + (Number(ticks) * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the process a lock file names still holds it. A pid alone says little: after a crash or a
 * reboot the system gives it to another process (in a container the service is often pid 1 again, or
 * something else is). So the file records the owner's start time and boot id as well, and a live pid whose
 * start time or boot differs is another process: the lock is stale. Where /proc is not there, a live pid
 * counts as the owner (the only safe answer). A file of an earlier version (the pid alone) is judged by its
 * age: a process that started after the file was written cannot have written it.
 */
function held(file: string, text: string): { pid: number; held: boolean } {
  const [pidText, start, boot] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !alive(pid)) return { pid, held: false };
  if (start && boot) {
    const thisBoot = readBootId();
    if (thisBoot !== undefined && thisBoot !== boot) return { pid, held: false };
    const now = processIdentity(pid);
    return { pid, held: now === undefined || now.start === start };
  }
  const started = startedAtMs(pid);
  if (started === undefined) return { pid, held: true };
  let written: number;
  try {
    written = fs.statSync(file).mtimeMs;
  } catch {
    return { pid, held: false };
  }
  // A second of slack for the clocks' granularity: a process started within it is taken for the owner.
  return { pid, held: started <= written + 1000 };
}

/**
 * The embedded database is a single-writer store: two processes on one directory corrupt it. An exclusive
 * lock file (created with O_EXCL) naming the owner (pid, start time, boot) keeps the second one out; a lock
 * left by a process that died, or whose pid another process now has, is taken over.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "svc.lock");
  const mine = lockText(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, "wx");
      fs.writeSync(fd, mine);
      fs.closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, "utf8") === mine) fs.unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let text: string;
      try {
        text = fs.readFileSync(file, "utf8");
      } catch {
        continue; // Removed meanwhile: try again.
      }
      const owner = held(file, text);
      if (owner.held) throw new DataDirLockedError(dir, owner.pid);
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(dir, -1);
}
