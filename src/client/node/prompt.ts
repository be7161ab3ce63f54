import readline from 'node:readline';

/**
 * Asks questions on stderr and reads answers from stdin, line by line; piped answers are buffered, so
 * none is lost between questions. A secret typed on a terminal is not echoed.
 */
export function prompter(input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr) {
  let lines: AsyncIterator<string> | undefined;
  const nextLine = async () => {
    lines ??= readline.createInterface({ input, terminal: false })[Symbol.asyncIterator]();
    const next = await lines.next();
    if (next.done) throw new Error('input ended before every question was answered');
    return next.value.trim();
  };

  const hidden = (question: string) =>
    new Promise<string>((resolve, reject) => {
      output.write(question);
      let typed = '';
      input.setRawMode(true);
      input.resume();
      const onData = (chunk: Buffer) => {
        for (const ch of chunk.toString('utf8')) {
          if (ch === '\r' || ch === '\n') return finish(() => resolve(typed.trim()));
          if (ch === '\u0003') return finish(() => reject(new Error('interrupted')));
          typed = ch === '\u007f' || ch === '\b' ? typed.slice(0, -1) : typed + ch;
        }
      };
      const finish = (settle: () => void) => {
        input.off('data', onData);
        input.setRawMode(false);
        input.pause();
        output.write('\n');
        settle();
      };
      input.on('data', onData);
    });

  return {
    async ask(question: string, { secret = false, fallback }: { secret?: boolean; fallback?: string } = {}): Promise<string> {
      const shown = fallback && !secret ? `${question} [${fallback}]: ` : `${question}: `;
      const answer = secret && input.isTTY ? await hidden(shown) : (output.write(shown), await nextLine());
      return answer || fallback || '';
    },
    close() {
      lines?.return?.();
    },
  };
}
