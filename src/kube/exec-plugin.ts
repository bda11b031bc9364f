/**
 * Exec credential plugins (`users[].user.exec`: aws, gke-gcloud-auth-plugin, kubelogin, ...), run by
 * kubewait itself instead of client-node: client-node waits for a plugin without a time limit and never
 * kills it, so a plugin that hangs held the step past its deadline and past SIGTERM. Here a plugin runs
 * in its own process group, under its own timeout and the caller's signal, and the whole group is killed
 * on every way out: when its timeout passes, when the wait ends while it still runs (it had the whole
 * wait to answer: the report must not wait for it again), when the client closes, and when the process
 * exits for any other reason (a second signal, a crash). Its stderr is never shown (it may echo a
 * secret); messages name the plugin and its exit code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ApiError } from './errors.js';
import type { ExecConfig, Secrets } from './kubeconfig.js';

export interface ExecCredential {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
}

/** A plugin that has not answered by then will not: login prompts, a stuck metadata server. */
export const EXEC_PLUGIN_TIMEOUT_MS = 30_000;
/** A plugin's stdout beyond this is not an ExecCredential. */
const MAX_STDOUT = 1024 * 1024;

export class ExecPlugin {
  private cached?: { credential: ExecCredential; expiresAt: number };
  private inFlight?: Promise<ExecCredential>;
  /** Each running plugin, with how to end its run: kill its group and settle its callers with a reason. */
  private readonly running = new Map<ChildProcess, (reason: ApiError) => void>();
  /** Why no plugin runs any more (the client closed, or the plugin was still hanging when the wait ended). */
  private refused?: ApiError;

  constructor(
    private readonly config: ExecConfig,
    private readonly user: string,
    private readonly secrets: Secrets,
    private readonly timeoutMs = EXEC_PLUGIN_TIMEOUT_MS,
  ) {}

  /** `aws` for `/usr/local/bin/aws`: how messages name the plugin. */
  get name(): string {
    return path.basename(this.config.command);
  }

  /** The current credential, running the plugin when there is none or it expired. One run at a time. */
  async credential(signal?: AbortSignal): Promise<ExecCredential> {
    if (this.cached && this.cached.expiresAt > Date.now()) return this.cached.credential;
    this.inFlight ??= this.run().finally(() => (this.inFlight = undefined));
    return abortable(this.inFlight, signal);
  }

  /**
   * The wait is over. A plugin still running had all of it and will not answer now: its group is killed,
   * and it is not started again, so reading the report's pods fails at once instead of hanging on it for
   * the report's own budget. A plugin that answered in time keeps serving its credential (and refreshing it).
   */
  stopAtEndOfWait(): void {
    if (this.running.size === 0) return;
    this.refused ??= this.fail('did not answer before the end of the wait and was stopped');
    this.stopRunning(this.refused);
  }

  /** Kills every running plugin (its whole process group); no plugin starts after this. */
  close(): void {
    this.refused = new ApiError(0, 'the client is closed', 'Cancelled');
    this.stopRunning(this.refused);
  }

  private stopRunning(reason: ApiError): void {
    for (const stop of [...this.running.values()]) stop(reason);
  }

  private fail(what: string): ApiError {
    return new ApiError(0, `the exec credential plugin "${this.name}" of user "${this.user}" ${what}`, 'Credentials');
  }

  private run(): Promise<ExecCredential> {
    if (this.refused) return Promise.reject(this.refused);
    const env = { ...process.env };
    for (const entry of this.config.env ?? []) if (entry && typeof entry.name === 'string') env[entry.name] = String(entry.value ?? '');
    // What client-go passes: plugins like kubelogin refuse to run without it.
    env.KUBERNETES_EXEC_INFO = JSON.stringify({
      apiVersion: this.config.apiVersion ?? 'client.authentication.k8s.io/v1',
      kind: 'ExecCredential',
      spec: { interactive: false },
    });
    return new Promise<ExecCredential>((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(this.config.command, this.config.args ?? [], { env, stdio: ['ignore', 'pipe', 'ignore'], detached: true });
      } catch (error) {
        reject(this.fail(`cannot be started (${(error as { code?: string }).code ?? 'error'})`));
        return;
      }
      const forget = killOnExit(child);
      let stdout = '';
      let settled = false;
      const timer = setTimeout(() => stop(this.fail(`did not finish within ${Math.round(this.timeoutMs / 1000)}s and was stopped`)), this.timeoutMs);
      timer.unref();
      const done = (result: ApiError | ExecCredential): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.running.delete(child);
        if (result instanceof ApiError) reject(result);
        else resolve(result);
      };
      const stop = (reason: ApiError): void => {
        killGroup(child);
        done(reason);
      };
      this.running.set(child, stop);
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        if (stdout.length < MAX_STDOUT) stdout += chunk;
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        forget();
        done(
          this.fail(
            error.code === 'ENOENT'
              ? `was not found (${this.config.command}): install it or fix users[].user.exec.command`
              : `cannot be started (${error.code ?? 'error'})`,
          ),
        );
      });
      child.on('close', (code, signal) => {
        forget();
        if (code !== 0)
          return done(this.fail(signal ? `was killed by ${signal}` : `exited with code ${code} (its stderr is withheld: it may contain secrets)`));
        try {
          done(this.parse(stdout));
        } catch (error) {
          done(error as ApiError);
        }
      });
    });
  }

  private parse(stdout: string): ExecCredential {
    let status: Record<string, unknown> | undefined;
    try {
      status = (JSON.parse(stdout) as { status?: Record<string, unknown> }).status;
    } catch {
      throw this.fail('printed something that is not an ExecCredential (JSON)');
    }
    const text = (key: string) => (typeof status?.[key] === 'string' && status[key] !== '' ? status[key] : undefined);
    const credential: ExecCredential = { token: text('token'), clientCertificateData: text('clientCertificateData'), clientKeyData: text('clientKeyData') };
    if (!credential.token && !(credential.clientCertificateData && credential.clientKeyData)) {
      throw this.fail('printed an ExecCredential without a token or client certificate and key');
    }
    for (const secret of [credential.token, credential.clientKeyData]) if (secret) this.secrets.mask(secret);
    const expiry = text('expirationTimestamp');
    const expiresAt = expiry ? Date.parse(expiry) : Number.POSITIVE_INFINITY;
    this.cached = { credential, expiresAt: Number.isNaN(expiresAt) ? Number.POSITIVE_INFINITY : expiresAt };
    return credential;
  }
}

/** The plugin's process group: a shell script's children (`sleep`, curl) go with it, also when the script
 *  itself has exited and left one of them holding its stdout. Called only before the child closes. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Plugins to kill if the process exits before they close (a second signal, a crash, the shells' forced
 *  exit): a detached process group outlives its parent. */
const unclosed = new Set<ChildProcess>();

/** Kills the child's group if the process exits before the child closes; returns what forgets it. */
function killOnExit(child: ChildProcess): () => void {
  if (unclosed.size === 0) process.on('exit', killUnclosed);
  unclosed.add(child);
  return () => {
    if (!unclosed.delete(child)) return;
    if (unclosed.size === 0) process.off('exit', killUnclosed);
  };
}

function killUnclosed(): void {
  for (const child of unclosed) killGroup(child);
}

/** The promise, or a rejection as soon as the signal aborts (the shared run goes on for other callers). */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new ApiError(0, 'request cancelled', 'Cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ApiError(0, 'request cancelled', 'Cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: Error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
