import { TableCameras } from '../camera/table-cameras.ts';
import type { Extension, HubContext } from './extension.ts';

/** The tables' overhead cameras (hub/camera/): their tracker messages, health and replay clips. */
export class CameraExtension implements Extension {
  readonly name = 'camera';
  cameras: TableCameras | null = null;

  constructor(private readonly hub: HubContext) {}

  start(): void {
    const { hub } = this;
    const cameras = new TableCameras({ dataDir: hub.dataDir, processor: hub.camera.processor, realtime: hub.camera.realtime, clock: hub.clock, log: hub.log });
    this.cameras = cameras;
    hub.events.on('table-state', this.name, ({ state }) => cameras.onState(state));
    for (const table of hub.tables.values()) cameras.add(table.config, table);
  }

  async stop(): Promise<void> {
    await this.cameras?.stop();
  }

  metrics(): string[] {
    return this.cameras?.metrics() ?? [];
  }
}
