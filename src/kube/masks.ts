/**
 * The secret values registered with the runner, kept so text the runner never filters can be masked too: the
 * runner masks `core.setSecret` values in the step log only, not in the job summary or outputs, and container
 * logs written there must not carry a credential. Implements `Secrets`: register through it, then `mask(text)`.
 */
import type { Secrets } from './kubeconfig.js';

/** A line of a multi-line secret shorter than this is not masked alone: `}` or `--` would mask half a log. */
const MIN_LINE_CHARS = 4;

export class SecretMasks implements Secrets {
  private readonly values = new Set<string>();
  private sorted: string[] = [];

  constructor(private readonly register: (value: string) => void = () => undefined) {}

  /** Registers a secret (also with the runner, through `register`); each line of a multi-line one as well,
   *  as the runner does, since a log may show it a line at a time. */
  mask(value: string): void {
    if (value === '') return;
    this.register(value);
    const pieces = [
      value,
      ...value
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l.length >= MIN_LINE_CHARS),
    ];
    for (const piece of pieces) this.values.add(piece);
    // Longest first: a secret that contains another is masked whole.
    this.sorted = [...this.values].sort((a, b) => b.length - a.length);
  }

  /** `text` with every registered secret replaced by `***`, as the runner writes it. */
  apply(text: string): string {
    let out = text;
    for (const secret of this.sorted) if (out.includes(secret)) out = out.split(secret).join('***');
    return out;
  }
}
