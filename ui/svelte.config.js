// Svelte 5 compiles the TypeScript in components itself; no preprocessors are needed.
export default {};
