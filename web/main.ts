/**
 * Runs the web panel on its own: `tsx web/main.ts` with settings from the environment,
 * or `tsx web/main.ts hash-password` to turn a password read from stdin into a hash.
 *
 *   BILLIARDS_MQTT_URL (mqtt://127.0.0.1:1883), BILLIARDS_MQTT_USERNAME, BILLIARDS_MQTT_PASSWORD,
 *   BILLIARDS_BASE_TOPIC (billiards), BILLIARDS_WEB_HOST (127.0.0.1), BILLIARDS_WEB_PORT (8080),
 *   BILLIARDS_VENUE_USERNAME, BILLIARDS_VENUE_PASSWORD_HASH (required).
 *   The MQTT login must be a referee (docs/security.md): commands carry no password.
 */
import { createWebPanel, hashPassword } from './index.ts';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

async function main(): Promise<void> {
  if (process.argv[2] === 'hash-password') {
    process.stdout.write(`${await hashPassword(await readStdin())}\n`);
    return;
  }
  const env = process.env;
  const panel = createWebPanel({
    mqtt: { url: env.BILLIARDS_MQTT_URL ?? 'mqtt://127.0.0.1:1883', username: env.BILLIARDS_MQTT_USERNAME, password: env.BILLIARDS_MQTT_PASSWORD },
    baseTopic: env.BILLIARDS_BASE_TOPIC ?? 'billiards',
    host: env.BILLIARDS_WEB_HOST ?? '127.0.0.1',
    port: env.BILLIARDS_WEB_PORT ? Number(env.BILLIARDS_WEB_PORT) : 8080,
    venue: { username: env.BILLIARDS_VENUE_USERNAME ?? 'venue', passwordHash: env.BILLIARDS_VENUE_PASSWORD_HASH ?? '' },
  });
  const { url } = await panel.start();
  console.log(`web panel: listening on ${url}`);
  const stop = () => void panel.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
