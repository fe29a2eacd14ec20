/**
 * The service account signing key when `--service-account-signing-key-file` is not given:
 * `sa.key` in the cert dir (an RSA 2048 private key, PKCS#8 PEM, mode 0600), generated once and
 * reused, as kubeadm's sa.key. Replicas must share one key (the Helm chart mounts one).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../api/error-message.js';

/**
 * The PEM signing key from `file` (throws when unreadable), else from (or newly written to)
 * `<certDir>/sa.key`. When the cert dir cannot be written (a read-only file system), the key
 * lives in memory only and `onEphemeral` is told: its tokens end with the process.
 */
export async function serviceAccountSigningKey(
  file: string | undefined,
  certDir: string,
  onEphemeral: (why: string) => void = () => undefined,
): Promise<string> {
  if (file) return readFile(file, 'utf8');
  const path = join(certDir, 'sa.key');
  try {
    return await readFile(path, 'utf8');
  } catch {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    try {
      await mkdir(certDir, { recursive: true, mode: 0o700 });
      await writeFile(path, pem, { mode: 0o600, flag: 'wx' }).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      return await readFile(path, 'utf8');
    } catch (err) {
      onEphemeral(`cannot write ${path}: ${errorMessage(err)}`);
      return pem;
    }
  }
}
