import mqttPacket from 'mqtt-packet';
import { installPublishFrames } from './publish-frame.ts';

/**
 * mqtt-packet (under mqtt.js and aedes) builds 65,536 two-byte buffers, one per message
 * id, the first time it writes a packet: about 6 MB of heap that stays for good and that
 * every full GC walks. Making the two bytes per packet instead costs nothing measurable at
 * a hub's rates. Importing this module is enough; it runs before either library writes.
 * It also has PUBLISH written in one piece (publish-frame.ts).
 */
installPublishFrames();
mqttPacket.writeToStream.cacheNumbers = false;
