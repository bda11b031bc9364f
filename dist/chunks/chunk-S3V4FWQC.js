import { createRequire as __kubewaitCreateRequire } from 'node:module'; const require = __kubewaitCreateRequire(import.meta.url);
import{a as e,c as r}from"./chunk-5YMLNJ2Y.js";var p=r((s,i)=>{i.exports=e("node:fs")});var q=r((t,o)=>{o.exports=e("node:path")});export{p as a,q as b};
