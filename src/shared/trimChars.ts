/**
 * Trimming runs of one character from a text's ends, in linear time: `/x+$/` retries its run at every position of a
 * long run that is not at the end, which is quadratic on text a service, a workspace or a page can write.
 */

/** `text` without the `char`s at its end (`char` is one UTF-16 unit). */
export function trimEndOf(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) {
    end--;
  }
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the `char`s at its start and its end (`char` is one UTF-16 unit). */
export function trimOf(text: string, char: string): string {
  let start = 0;
  while (start < text.length && text[start] === char) {
    start++;
  }
  return trimEndOf(start === 0 ? text : text.slice(start), char);
}
