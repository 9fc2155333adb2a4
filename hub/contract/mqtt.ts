/**
 * The public contract (CONTRACT §3), both directions, shared by the hub and the web panel:
 * the topics and their parser, the schemas of every payload the hub publishes (with the
 * types inferred from them) and of every request it accepts.
 */
export * from './topics.ts';
export * from './table.ts';
export * from './hub-state.ts';
export * from './league.ts';
export * from './commands.ts';
