import { createRequire as __kubewaitCreateRequire } from 'node:module'; const require = __kubewaitCreateRequire(import.meta.url);
import{a as r,c as i}from"./chunk-5YMLNJ2Y.js";var o=i((p,e)=>{e.exports=r("node:crypto")});export{o as a};
