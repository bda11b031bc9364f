/** A CA and a serving certificate (IP SAN 127.0.0.1, DNS localhost) signed by it, generated once per process. */
import { generate } from 'selfsigned';

export interface ServingPki {
  caPem: string;
  certPem: string;
  keyPem: string;
}

let cached: Promise<ServingPki> | undefined;

async function createPki(): Promise<ServingPki> {
  const notAfterDate = new Date(Date.now() + 365 * 24 * 3600 * 1000);
  const ca = await generate([{ name: 'commonName', value: 'kubewait-test-ca' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const serving = await generate([{ name: 'commonName', value: 'kube-apiserver' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'kubernetes.default.svc' },
        ],
      },
    ],
  });
  return { caPem: ca.cert, certPem: serving.cert, keyPem: serving.private };
}

export function servingPki(): Promise<ServingPki> {
  cached ??= createPki();
  return cached;
}
