/**
 * The messages between WorkerClient and a worker entry (parseWorker.ts, storeWorker.ts), and the
 * one helper a worker answers with (errors in the envelope's form, shared/envelope.ts), so both ends read the same shapes.
 */
import type { MessagePort } from 'node:worker_threads';
import { failureOf, type ApiFailure } from '../../shared/envelope';

export type WorkerReply<Result, Event> =
  | { id: number; event: Event }
  | { id: number; result: Result }
  | { id: number; error: ApiFailure['error'] };

/** Serve jobs on a worker's parent port: `handle` runs one job, `emit` sends its events. */
export function serveJobs<Job, Result, Event>(
  port: MessagePort | null,
  handle: (job: Job, emit: (event: Event) => void) => Promise<Result>,
): void {
  if (!port) return;
  // one job at a time, in the order they came
  let chain = Promise.resolve();
  port.on('message', (msg: Job & { id: number }) => {
    chain = chain.then(async () => {
      const emit = (event: Event): void => port.postMessage({ id: msg.id, event } satisfies WorkerReply<Result, Event>);
      try {
        const result = await handle(msg, emit);
        port.postMessage({ id: msg.id, result } satisfies WorkerReply<Result, Event>);
      } catch (e) {
        port.postMessage({ id: msg.id, error: failureOf(e).error } satisfies WorkerReply<Result, Event>);
      }
    });
  });
}
