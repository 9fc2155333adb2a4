import { EventEmitter } from 'node:events';
import type { MqttClient } from 'mqtt';

/** An in-memory stand-in for an mqtt.js client, for in-process route tests. */
export class StubClient extends EventEmitter {
  connected = true;
  readonly published: { topic: string; payload: string }[] = [];
  /** Called on every publish: answer requests here. */
  onPublish: ((topic: string, body: Record<string, unknown>) => void) | null = null;

  subscribe(_topics: unknown, _opts?: unknown, cb?: () => void): this {
    cb?.();
    return this;
  }
  async unsubscribeAsync(): Promise<void> {}
  publish(): this {
    return this;
  }
  async publishAsync(topic: string, payload: string): Promise<undefined> {
    this.published.push({ topic, payload });
    const body = JSON.parse(payload) as Record<string, unknown>;
    queueMicrotask(() => this.onPublish?.(topic, body));
    return undefined;
  }
  deliver(topic: string, body: unknown): void {
    this.emit('message', topic, Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)));
  }
  /** Answers every request ok (or with `error`) on its response topic. */
  answerAll(make: (command: string, body: Record<string, unknown>) => { data?: unknown; error?: string } = () => ({ data: { done: true } })): void {
    this.onPublish = (topic, body) => {
      const command = topic.replace(/^billiards\/request\//, '');
      const r = make(command, body);
      this.deliver(`billiards/response/${command}`, r.error ? { transaction: body.transaction, status: 'error', error: r.error } : { transaction: body.transaction, status: 'ok', data: r.data ?? null });
    };
  }
  asClient(): MqttClient {
    return this as unknown as MqttClient;
  }
}
