/** Progress lines go to stderr so `stack:up` can print only the resolved addresses on stdout. */
export type Log = (line: string) => void;

export const stderrLog: Log = (line) => {
  process.stderr.write(`[stack] ${line}\n`);
};

export const silentLog: Log = () => {};
