import { CameraExtension } from './camera.ts';
import type { ExtensionFactory } from './extension.ts';
import { HealthExtension } from './health.ts';
import { HomeAssistantExtension } from './home-assistant.ts';
import { LeagueExtension } from './league.ts';
import { MetricsExtension } from './metrics.ts';
import { TrackerExtension } from './tracker.ts';

export type { Extension, ExtensionFactory, HubContext } from './extension.ts';
export { CameraExtension, HealthExtension, HomeAssistantExtension, LeagueExtension, MetricsExtension, TrackerExtension };

/**
 * The features a venue's hub runs, in start order (stopped in reverse): the composition
 * root (app/) registers these; a Hub built without a list runs the same ones.
 */
export const DEFAULT_EXTENSIONS: readonly ExtensionFactory[] = [
  (hub) => new MetricsExtension(hub),
  (hub) => new HealthExtension(hub),
  (hub) => new LeagueExtension(hub),
  (hub) => new HomeAssistantExtension(hub),
  (hub) => new TrackerExtension(hub),
  (hub) => new CameraExtension(hub),
];
