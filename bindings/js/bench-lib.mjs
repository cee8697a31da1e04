// Timing helpers the package's benchmark scripts share (bench-bao.mjs,
// bench-many.mjs): CPU time of this process (process.cpuUsage), so time
// other processes take on a shared machine is not counted.

/** Milliseconds of CPU time this process has used. */
export const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Calls per CPU second of `fn`, run for about `ms` ms (at least twice). */
export function rate(fn, ms) {
  let calls = 0;
  const start = cpuMs();
  while (cpuMs() - start < ms || calls < 2) {
    fn();
    calls++;
  }
  return calls / ((cpuMs() - start) / 1000);
}

/** The middle value (the upper one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
