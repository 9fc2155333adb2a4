/** What holding a connection's writes needs of its stream (a net.Socket has it). */
export interface CorkableStream {
  cork(): void;
  uncork(): void;
  readonly destroyed?: boolean;
}

/**
 * Sends a connection's writes of one turn of the event loop in one system call. aedes
 * delivers each message in its own `setImmediate` and mqtt-packet corks the socket only
 * until the next tick, so every message cost a `writev` of its own (issue 18: 5 times the
 * calls, and as many reads for the subscriber). The first cork of a turn takes one more,
 * held until the next `setImmediate`: the turn's deliveries run first, and then go out
 * together. A 1 ms timer bounds the wait when that turn ran long: the next turn's timers
 * come before its reads, so a busy hub does not hold the writes behind a round of input.
 * Nothing is dropped or reordered.
 */
export function writePerTurn(stream: CorkableStream): void {
  const cork = stream.cork;
  let held = false;
  let bound: NodeJS.Timeout | null = null;
  const release = () => {
    if (!held) return;
    held = false;
    if (bound) clearTimeout(bound);
    bound = null;
    stream.uncork();
  };
  stream.cork = function corkForTheTurn(this: CorkableStream) {
    if (!held && stream.destroyed !== true) {
      held = true;
      cork.call(stream);
      setImmediate(release);
      bound = setTimeout(release, 1);
    }
    cork.call(stream);
  };
}
