import { hostileReply } from './chatContent';
import { articleUrl } from './corpus';

/*
 * Encyclopedia answers full of things that must stay inert wherever they are shown or handed on (the shape
 * `hostile`: `X-Fake-Shape: hostile` or `#fault:shape:hostile` in `q` / `title`): raw HTML, `javascript:` and
 * `command:` links and sources, a link definition, control characters (an ANSI escape) and a bidirectional override.
 */

/** Text with an ANSI colour escape and a right-to-left override inside. */
export const HOSTILE_INVISIBLES = 'Colour \u001b[31mred\u001b[0m and \u202Edesrever\u202C text.';

/** The sources of a hostile answer: two that must not become links, one ordinary one. */
export const HOSTILE_SOURCES = [
  { title: '[Quit](command:workbench.action.quit)', url: 'command:workbench.action.quit' },
  { title: '<img src=x onerror=alert(1)>', url: 'javascript:alert(1)' },
  { title: 'Alan Turing', url: articleUrl('Alan Turing') },
];

/** The body of a hostile `/v1/axo/ask` answer. */
export function hostileAnswer(model: string): unknown {
  return {
    answer: `${hostileReply()}\n\n${HOSTILE_INVISIBLES}\n\n[evil]: command:workbench.action.quit`,
    model,
    sources: HOSTILE_SOURCES,
  };
}

/** The body of a hostile `/v1/axo/search` answer. */
export function hostileSearch(): unknown {
  return {
    results: [
      { title: '<script>alert(1)</script>', snippet: '[click](javascript:alert(1)) here', url: 'javascript:alert(1)' },
      { title: '[Quit](command:workbench.action.quit)', snippet: HOSTILE_INVISIBLES, url: 'command:x' },
      { title: 'Alan Turing', snippet: 'An ordinary result.', url: articleUrl('Alan Turing') },
    ],
  };
}

/** The body of a hostile `/v1/axo/article` answer titled `title`. */
export function hostileArticle(title: string): unknown {
  return {
    title: `${title} <script>alert(1)</script>`,
    summary: 'A hostile article.',
    content: `${hostileReply()}\n\n${HOSTILE_INVISIBLES}`,
    url: articleUrl(title),
    media: ['javascript:alert(1)'],
    facts: {
      '<b onmouseover=alert(1)>Name</b>': '[Quit](command:workbench.action.quit)',
      Link: '<a href="javascript:alert(1)">x</a>',
    },
  };
}
