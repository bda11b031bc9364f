import { createRequire as __kubewaitCreateRequire } from 'node:module'; const require = __kubewaitCreateRequire(import.meta.url);
var l=Symbol.for("kubewait.cancellation"),r=globalThis,o=r[l]??={controller:new AbortController,installed:!1},{controller:n}=o,t=e=>{n.signal.aborted&&process.exit(1),process.stderr.write(`kubewait: received ${e}, stopping the wait and reporting what is known
`),n.abort()};function s(){return o.installed||(o.installed=!0,process.on("SIGINT",t),process.on("SIGTERM",t)),n.signal}export{s as a};
