/**
 * Credentials never reach the command's output. The kube layer registers every secret it reads (tokens,
 * keys, passwords, exec tokens at request time) through `Secrets.mask`; in the action the runner hides
 * them, here the command replaces them in everything it writes, as the runner does (`***`).
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  add(secret: string): void {
    const value = secret.trim();
    if (value !== '') this.secrets.add(value);
    // Multi-line secrets (PEM keys) are also hidden line by line, like the runner's masks.
    for (const line of value.split(/\r?\n/)) if (line.trim().length >= 8) this.secrets.add(line.trim());
  }

  redact(text: string): string {
    let out = text;
    // Longest first: a secret that contains another is hidden whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) if (out.includes(secret)) out = out.split(secret).join('***');
    return out;
  }
}
