import { createRequire as __kubewaitCreateRequire } from 'node:module'; const require = __kubewaitCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-6CMMYR7C.js";import"./chunk-D4EBQXQU.js";import"./chunk-SVIWAQLO.js";import"./chunk-5YMLNJ2Y.js";export{a as defaultSources,b as loadKubeConfig,c as withoutCredentials};
