import { createRequire as __kubewaitCreateRequire } from 'node:module'; const require = __kubewaitCreateRequire(import.meta.url);
var e=Symbol.for("kubewait.cancellation"),r=globalThis;function a(){let o=r[e];if(!o){let n=new AbortController;o=r[e]={controller:n};let t=l=>{n.signal.aborted&&process.exit(1),process.stderr.write(`kubewait: received ${l}, stopping the wait and reporting what is known
`),n.abort()};process.on("SIGINT",t),process.on("SIGTERM",t)}return o.controller.signal}export{a};
