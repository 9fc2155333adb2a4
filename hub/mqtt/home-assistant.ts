import { topics } from '../contract/mqtt.ts';

/**
 * Home Assistant MQTT discovery: each table's status, whose turn, the score line and the
 * current run as sensors that read the retained table state.
 */
export function discoveryMessages(prefix: string, baseTopic: string, hubId: string, tables: readonly { id: string; name?: string | undefined }[]): { topic: string; payload: unknown }[] {
  const t = topics(baseTopic);
  const sensors = [
    { key: 'status', name: 'status', template: '{{ value_json.status }}' },
    { key: 'turn', name: 'turn', template: '{{ value_json.turn or "" }}' },
    { key: 'score', name: 'score', template: '{{ value_json.players | map(attribute="score") | join(" : ") }}' },
    { key: 'run', name: 'current run', template: '{{ (value_json.players | selectattr("name", "equalto", value_json.turn) | map(attribute="run") | first) or 0 }}' },
  ];
  return tables.flatMap((table) =>
    sensors.map((s) => {
      const uid = `billiards_${hubId}_${table.id}_${s.key}`.replace(/[^A-Za-z0-9_]/g, '_');
      return {
        topic: `${prefix}/sensor/${uid}/config`,
        payload: {
          name: `${table.name ?? table.id} ${s.name}`,
          unique_id: uid,
          state_topic: t.tableState(table.id),
          value_template: s.template,
          json_attributes_topic: s.key === 'score' ? t.tableState(table.id) : undefined,
          json_attributes_template: s.key === 'score' ? '{{ {"players": value_json.players, "variant": value_json.variant} | tojson }}' : undefined,
          availability_topic: t.tableAvailability(table.id),
          payload_available: '{"state":"online"}',
          payload_not_available: '{"state":"offline"}',
          device: { identifiers: [`billiards_${hubId}_${table.id}`], name: table.name ?? `Billiard table ${table.id}`, manufacturer: 'billiards-scoring-hub', model: 'sensor table' },
        },
      };
    }),
  );
}
