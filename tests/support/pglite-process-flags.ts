/**
 * V8's code-page tracking (ThreadIsolation) can abort a process that opens and closes many PGlite
 * WebAssembly instances ("Check failed: jit_page.has_value()", nodejs/node#64500). The flag that turns
 * that protection off exists from Node 22's V8. The test processes that open PGlite take it: Vitest's
 * workers (decision 245) and the PGlite template's build (decision 268); never the server.
 */
export const PGLITE_PROCESS_FLAGS: string[] =
  Number(process.versions.node.split('.')[0]) >= 22 ? ['--no-memory-protection-keys'] : [];
