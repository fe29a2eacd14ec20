/**
 * The `ck-apiserver` package: start a real, upstream-compatible API server inside a test
 * suite. `startServer()` runs it in this process; `ck-apiserver/testcontainers` runs the
 * project's image in a container.
 */
export { startServer, type StartServerOptions, type StartedServer } from './library/start-server.js';
