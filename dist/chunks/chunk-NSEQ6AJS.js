import { createRequire as __kubewaitCreateRequire } from 'node:module'; const require = __kubewaitCreateRequire(import.meta.url);
import{a as i,c as n,e as s}from"./chunk-5YMLNJ2Y.js";var o=n((c,e)=>{e.exports=i("node:module")});var r=s(o(),1),u=r.default.createRequire(process.execPath),l=process.getBuiltinModule?.bind(process)??(t=>u(t));export{o as a,l as b};
