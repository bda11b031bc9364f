import { createRequire as __kubewaitCreateRequire } from 'node:module'; const require = __kubewaitCreateRequire(import.meta.url);
import{b as a,c as b,d as c}from"./chunk-KG5H6SWM.js";import"./chunk-2AOJVFDV.js";import"./chunk-D4EBQXQU.js";import"./chunk-OPNYJTEF.js";import"./chunk-S3V4FWQC.js";import"./chunk-5YMLNJ2Y.js";export{a as defaultSources,b as loadKubeConfig,c as withoutCredentials};
