import * as assert from 'node:assert/strict';
import { MATH_FORMULAS } from '../../fakeService/chatContent';
import { poll, screenshot } from '../harness/workbench';
import { openChat, replies, sendPrompt, waitForReplyEnd } from './chatHelpers';
import { useChatGroup } from './chatGroup';

/** A `<math>` element, as the page function below reads it. */
interface MathElement {
  getAttribute(name: string): string | null;
}

describe('Math in the chat', function () {
  this.timeout(120_000);
  const { session } = useChatGroup('chat-math');

  it('a streamed reply draws its TeX as MathML while it streams; amounts stay text; hostile formulas are inert', async () => {
    const frame = await openChat(session.page);
    await sendPrompt(frame, 'Solve the quadratic #math #fault:slow');
    const content = replies(frame).last().locator('.content');
    // The first formula is drawn as MathML while the reply is still streaming.
    await content.locator('math').first().waitFor({ state: 'attached', timeout: 30_000 });
    assert.ok(await frame.getByRole('button', { name: 'Stop generating' }).isVisible(), 'still streaming');
    await waitForReplyEnd(frame, 90_000);

    const formulas = await content
      .locator('math')
      .evaluateAll((elements: MathElement[]) =>
        elements.map((m) => ({ tex: m.getAttribute('alttext'), display: m.getAttribute('display') === 'block' })),
      );
    assert.deepEqual(formulas, [
      { tex: MATH_FORMULAS.inline, display: false },
      { tex: MATH_FORMULAS.display, display: true },
      { tex: MATH_FORMULAS.parenthesised, display: false },
      { tex: MATH_FORMULAS.bracketed, display: true },
    ]);
    // Each formula is named by its TeX (aria-label, as Chromium's accessibility tree shows it).
    assert.equal(await content.getByLabel(MATH_FORMULAS.display, { exact: true }).count(), 1);

    const text = await content.innerText();
    assert.match(text, /It costs \$5 and \$10, or \$5–\$10 in bulk\./, 'dollar amounts stay text');
    const sources = content.locator('code.math-source');
    assert.deepEqual(await sources.allTextContents(), [
      '$\\href{javascript:alert(1)}{click me}$',
      '$$\\url{command:workbench.action.quit}$$',
      '$\\def\\a{\\a\\a}\\a$',
    ]);
    assert.equal(await content.locator('a, [data-url], [href], [style]').count(), 0, 'no link, no inline style');
    // Clicking the hostile formula does nothing: no new editor, no dialog, the window stays.
    await sources.first().click();
    await poll(async () => (await content.locator('math').count()) === 4, 5_000, 'the reply changed after a click');
    await screenshot(session.page, 'chat-math');
  });
});
