/*
 * A container's command as words (v1 `dockerStartCmd: string[]`) and as one string (v2 `args`),
 * each into the other. v2 keeps one string of "arguments passed to the container entrypoint";
 * v1 kept a list. Words are joined with POSIX shell quoting, so every list survives the trip
 * (`argsFromWords` then `wordsFromArgs` gives it back). A string written by hand is split as a
 * shell splits words, quotes and backslashes included, but nothing is expanded: `$HOME`, `*` and
 * `|` stay literal text, since no shell runs between the platform and the entrypoint.
 */

/** Characters a word may hold without quoting. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One word, quoted when it needs to be: `'...'`, with each `'` written `'\''`. */
function quoteWord(word: string): string {
  if (PLAIN.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** v1's command words as v2's `args` string (`[]` is `""`). */
export function argsFromWords(words: readonly string[]): string {
  return words.map(quoteWord).join(" ");
}

/**
 * v2's `args` string as words: split on unquoted whitespace; `'...'` keeps everything literally;
 * `"..."` keeps everything but `\"`, `\\`, `\$` and `` \` ``, which lose their backslash; a
 * backslash outside quotes keeps the next character. An unclosed quote runs to the end.
 */
export function wordsFromArgs(args: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < args.length; i++) {
    const c = args[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && i + 1 < args.length && '"\\$`'.includes(args[i + 1]!)) word += args[++i];
      else word += c;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      inWord = true;
      if (c === "'" || c === '"') quote = c;
      else if (c === "\\" && i + 1 < args.length) word += args[++i];
      else word += c;
    }
  }
  if (inWord) words.push(word);
  return words;
}
