#!/usr/bin/env node
var r=Symbol.for("kubewait.cancellation"),s=globalThis,o=s[r]??={controller:new AbortController,installed:!1},{controller:n}=o,t=e=>{n.signal.aborted&&process.exit(1),process.stderr.write(`kubewait: received ${e}, stopping the wait and reporting what is known
`),n.abort()};function l(){return o.installed||(o.installed=!0,process.on("SIGINT",t),process.on("SIGTERM",t)),n.signal}l();var a="./kubewait-cli.js";await import(a);
