// The flow builder's shared core: graph schema, engine, phrase-campaign rules (README.md).
export * from './constants.ts';
export * from './text.ts';
export * from './nodes.ts';
export * from './graph.ts';
export * from './state.ts';
export * from './condition.ts';
export * from './engine.ts';
export * from './phrase.ts';
export * from './lint.ts';
export * from './wire.ts';
