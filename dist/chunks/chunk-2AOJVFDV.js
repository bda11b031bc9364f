import { createRequire as __kubewaitCreateRequire } from 'node:module'; const require = __kubewaitCreateRequire(import.meta.url);
import{a as e,c as r}from"./chunk-5YMLNJ2Y.js";var q=r((u,i)=>{i.exports=e("node:http")});var s=r((x,o)=>{o.exports=e("node:https")});var t=r((a,p)=>{p.exports=e("node:child_process")});export{q as a,s as b,t as c};
