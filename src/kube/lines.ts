/**
 * Newline-delimited text as it arrives in chunks (a watch stream: one JSON event per line). A line cut
 * across chunks is joined; the chunks must already be decoded text so a character is never cut.
 */
export class LineSplitter {
  private partial = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    let newline = chunk.indexOf('\n');
    if (newline < 0) {
      this.partial += chunk;
      return;
    }
    this.emit(this.partial + chunk.slice(0, newline));
    this.partial = '';
    let start = newline + 1;
    while ((newline = chunk.indexOf('\n', start)) >= 0) {
      this.emit(chunk.slice(start, newline));
      start = newline + 1;
    }
    this.partial = chunk.slice(start);
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    const rest = this.partial;
    this.partial = '';
    this.emit(rest);
  }

  private emit(line: string): void {
    const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (trimmed.trim() !== '') this.onLine(trimmed);
  }
}
