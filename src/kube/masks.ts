/**
 * The secret values registered with the runner, kept so text the runner never filters can be masked too: the
 * runner masks `core.setSecret` values in the step log only, not in the job summary or outputs, and container
 * logs written there must not carry a credential. The command masks everything it writes with the same class,
 * as the runner would (`***`). Implements `Secrets`: register through it, then `apply(text)`.
 */
import type { Secrets } from './kubeconfig.js';

/**
 * What one registered secret masks: the value as given, and each line of it, trimmed, whatever its length. This
 * is the runner's own rule for `::add-mask::` (actions/runner, AddMaskCommandExtension: the whole value, then
 * every non-empty trimmed line, with no minimum length), so the job summary, the outputs and the command's
 * output hide exactly what the step log hides. A shorter rule would show there what the log masks (the last
 * line of a PEM key can be 4 characters); a longer one would mask what the log shows.
 */
export function maskedPieces(value: string): string[] {
  if (value.trim() === '') return [];
  const lines = value
    .split(/[\r\n]+/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return [...new Set([value, ...lines])];
}

export class SecretMasks implements Secrets {
  /** Each value registered, once: a kubeconfig of 300 users read for 300 clusters registers each 300 times. */
  private readonly registered = new Set<string>();
  private readonly values = new Set<string>();
  /** The pieces, longest first; undefined until `apply` needs them after a change. */
  private sorted: string[] | undefined = [];

  /** `register`: also registers each secret with the runner (`::add-mask::`), which splits it the same way. */
  constructor(private readonly register: (value: string) => void = () => undefined) {}

  mask(value: string): void {
    if (this.registered.has(value)) return;
    this.registered.add(value);
    const pieces = maskedPieces(value);
    if (pieces.length === 0) return;
    this.register(value);
    for (const piece of pieces) this.values.add(piece);
    this.sorted = undefined;
  }

  /** `text` with every registered secret replaced by `***`, as the runner writes it. */
  apply(text: string): string {
    // Longest first: a secret that contains another is masked whole.
    this.sorted ??= [...this.values].sort((a, b) => b.length - a.length);
    let out = text;
    for (const secret of this.sorted) if (out.includes(secret)) out = out.split(secret).join('***');
    return out;
  }
}
