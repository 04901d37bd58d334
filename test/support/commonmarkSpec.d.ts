/** The CommonMark spec's examples, as the `commonmark-spec` package exports them. */
declare module 'commonmark-spec' {
  /** One example of the spec: its Markdown and the HTML CommonMark gives for it. */
  export interface Example {
    markdown: string;
    html: string;
    section: string;
    number: number;
  }
  export const tests: Example[];
  export const text: string;
}
