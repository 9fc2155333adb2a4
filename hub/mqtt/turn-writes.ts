/** What holding a connection's writes needs of its stream (a net.Socket has it). */
export interface CorkableStream {
  cork(): void;
  uncork(): void;
  readonly destroyed?: boolean;
}

/**
 * Sends a connection's writes of one turn of the event loop in one system call. aedes
 * delivers each message in its own `setImmediate` and mqtt-packet corks the socket only
 * until the next tick, so every message cost a `writev` of its own (issue 18: 11 % of the
 * hub's time at 64 tables, one subscriber). The first cork of a turn takes one more, held
 * until the next `setImmediate`: the turn's deliveries run first, and then go out together.
 * Nothing is dropped or reordered; a message waits at most one more turn of the loop.
 */
export function writePerTurn(stream: CorkableStream): void {
  const cork = stream.cork;
  let held = false;
  const release = () => {
    held = false;
    stream.uncork();
  };
  stream.cork = function corkForTheTurn(this: CorkableStream) {
    if (!held && stream.destroyed !== true) {
      held = true;
      cork.call(stream);
      setImmediate(release);
    }
    cork.call(stream);
  };
}
