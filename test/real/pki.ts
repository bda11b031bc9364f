/**
 * The certificates and keys a real control plane needs, generated at start (nothing is committed):
 * a CA, the kube-apiserver serving certificate (127.0.0.1, localhost, the in-cluster names), an admin
 * client certificate (O=system:masters, which the RBAC bootstrap policy binds to cluster-admin), and the
 * RSA key pair that signs and verifies service-account tokens.
 */
import { generateKeyPairSync } from 'node:crypto';
import { generate } from 'selfsigned';

export interface ControlPlanePki {
  caPem: string;
  servingCertPem: string;
  servingKeyPem: string;
  adminCertPem: string;
  adminKeyPem: string;
  serviceAccountPublicPem: string;
  serviceAccountPrivatePem: string;
}

export const ADMIN_USER = 'kubewait-admin';

export async function createControlPlanePki(): Promise<ControlPlanePki> {
  const notAfterDate = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  const common = { keyType: 'ec', algorithm: 'sha256', notAfterDate } as const;
  const ca = await generate([{ name: 'commonName', value: 'kubewait-real-cluster-ca' }], {
    ...common,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const signedBy = { key: ca.private, cert: ca.cert };
  const serving = await generate([{ name: 'commonName', value: 'kube-apiserver' }], {
    ...common,
    ca: signedBy,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
          { type: 2, value: 'kubernetes' },
          { type: 2, value: 'kubernetes.default' },
          { type: 2, value: 'kubernetes.default.svc' },
          { type: 2, value: 'kubernetes.default.svc.cluster.local' },
        ],
      },
    ],
  });
  const admin = await generate(
    [
      { name: 'commonName', value: ADMIN_USER },
      { name: 'organizationName', value: 'system:masters' },
    ],
    {
      ...common,
      ca: signedBy,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', clientAuth: true },
      ],
    },
  );
  const serviceAccount = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    caPem: ca.cert,
    servingCertPem: serving.cert,
    servingKeyPem: serving.private,
    adminCertPem: admin.cert,
    adminKeyPem: admin.private,
    serviceAccountPublicPem: serviceAccount.publicKey,
    serviceAccountPrivatePem: serviceAccount.privateKey,
  };
}
