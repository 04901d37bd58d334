import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { CORPUS } from '../../fakeService/corpus';
import { type RecordedRequest } from '../../fakeService/fakeService';
import { useFakeService } from '../harness/fakeServiceHooks';
import { vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import {
  clearNotifications,
  fillInputBox,
  inputBox,
  notificationButton,
  poll,
  runCommand,
  waitForToast,
} from '../harness/workbench';
import {
  encyclopediaFrame,
  hoverOver,
  openFile,
  quickPickLabels,
  quickPickRow,
  toastButton,
} from './encyclopediaHelpers';

const ASK = 'AXO: Ask the Encyclopedia…';
const SEARCH = 'AXO: Search the Encyclopedia…';
const ARTICLE = 'AXO: Open Article…';

describe('AXO encyclopedia in the packaged extension', function () {
  this.timeout(120_000);
  const axoKey = `fke_${randomBytes(12).toString('hex')}`;
  const service = useFakeService({ axoKey });
  const session = useWorkbench('encyclopedia', () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    // The key comes from the environment, as on a remote machine; the key commands have their own tests.
    env: { AXO_API_KEY: axoKey },
    settings: { 'alphaAxo.requestTimeoutSeconds': 6 },
    workspaceFiles: { 'notes.txt': 'Reading list\nAlan Turing\nsomething else\n' },
  }));

  /** Runs a palette command that asks for text, types it, and returns the requests the service saw meanwhile. */
  async function lookUp(command: string, text: string): Promise<() => RecordedRequest[]> {
    const start = service().requests.length;
    await runCommand(session.page, command);
    await fillInputBox(session.page, text);
    return () => service().requests.slice(start);
  }

  it('asks from the palette: the view shows the answer and its citations', async () => {
    const requests = await lookUp(ASK, 'Who was Alan Turing?');
    const frame = await encyclopediaFrame(session.page);
    await frame.getByRole('heading', { name: 'Who was Alan Turing?' }).waitFor({ timeout: 20_000 });
    const article = frame.getByRole('article');
    assert.match(await article.innerText(), /English mathematician and computer scientist/);
    assert.match(await article.innerText(), /Answer from AXO/);
    const sources = frame.getByRole('region', { name: 'Sources' }).getByRole('link');
    assert.ok((await sources.count()) >= 1, 'no citation links');
    assert.equal(await sources.first().innerText(), 'Alan Turing');
    assert.equal(await sources.first().getAttribute('data-url'), 'https://axo.example/wiki/Alan_Turing');
    const asked = requests().filter((r) => r.path === '/v1/axo/ask');
    assert.equal(asked.length, 1);
    assert.deepEqual(
      [asked[0].query.model, asked[0].query.q, asked[0].keyKind],
      ['axo', 'Who was Alan Turing?', 'axo'],
    );
  });

  it('a second identical lookup makes no request and says it is cached', async () => {
    const requests = await lookUp(ASK, 'Who was Alan Turing?');
    const frame = await encyclopediaFrame(session.page);
    await frame.getByText(/^Cached · /).waitFor({ timeout: 10_000 });
    await frame.getByRole('heading', { name: 'Who was Alan Turing?' }).waitFor();
    assert.deepEqual(requests(), []);
  });

  it('the model button of the Ask box switches to AXO.1, which the request carries', async () => {
    const start = service().requests.length;
    await runCommand(session.page, ASK);
    const input = await inputBox(session.page);
    await input.fill('What is photosynthesis?');
    await session.page
      .locator('.quick-input-widget .quick-input-titlebar')
      .getByRole('button', { name: /Change Model/ })
      .click();
    await quickPickRow(session.page, 'AXO.1').click();
    await poll(
      async () => (await inputBox(session.page)).inputValue().then((v) => v === 'What is photosynthesis?'),
      10_000,
      'the Ask box did not come back',
    );
    await (await inputBox(session.page)).press('Enter');
    const frame = await encyclopediaFrame(session.page);
    await frame.getByText('Answer from AXO.1').waitFor({ timeout: 20_000 });
    const asked = service()
      .requests.slice(start)
      .filter((r) => r.path === '/v1/axo/ask');
    assert.deepEqual(
      asked.map((r) => r.query.model),
      ['axo.1'],
    );
  });

  it('opens an article with facts: the Facts table shows every pair', async () => {
    await lookUp(ARTICLE, 'Alan Turing');
    const frame = await encyclopediaFrame(session.page);
    const table = frame.getByRole('table', { name: 'Facts' });
    await table.waitFor({ timeout: 20_000 });
    const expected = CORPUS.find((a) => a.title === 'Alan Turing')?.facts ?? [];
    assert.ok(expected.length > 0);
    const names = await table.locator('tbody th[scope="row"]').allInnerTexts();
    const values = await table.locator('tbody td:not(.row-action)').allInnerTexts();
    assert.deepEqual(
      names.map((n, i) => [n.trim(), values[i].trim()]),
      expected.map(([n, v]) => [n, v]),
    );
    for (const name of ['Open as Markdown', 'Insert fact', 'Ask ALPHA about this', 'Back', 'Forward']) {
      await frame.getByRole('button', { name }).first().waitFor();
    }
  });

  it('searches: the quick pick lists titles exactly, and picking one opens its article', async () => {
    const start = service().requests.length;
    await runCommand(session.page, SEARCH);
    // The results quick pick takes the input box's place, so the widget never closes in between.
    await (await inputBox(session.page)).fill('photosynthesis');
    await session.page.keyboard.press('Enter');
    await quickPickRow(session.page, 'Photosynthesis').waitFor({ timeout: 20_000 });
    const requests = () => service().requests.slice(start);
    const labels = await quickPickLabels(session.page);
    assert.ok(labels.includes('Photosynthesis'), labels.join(', '));
    await quickPickRow(session.page, 'Photosynthesis').click();
    const frame = await encyclopediaFrame(session.page);
    await frame.getByRole('heading', { name: 'Photosynthesis', exact: true }).waitFor({ timeout: 20_000 });
    await frame.getByRole('table', { name: 'Facts' }).getByText('Chlorophyll a and b').waitFor();
    assert.deepEqual(
      requests().map((r) => r.path),
      ['/v1/axo/search', '/v1/axo/article'],
    );
  });

  it('hovering a looked-up term in an editor shows its facts', async () => {
    const editor = await openFile(session.page, 'notes.txt');
    const hover = await hoverOver(session.page, editor, 'Alan Turing', /23 June 1912/);
    const text = await hover.innerText();
    assert.match(text, /Born/);
    assert.match(text, /Open article/);
    await session.page.mouse.move(5, 5);
  });

  it('Insert fact puts the fact at the cursor of the editor, and Open as Markdown opens a document', async () => {
    const editor = await openFile(session.page, 'notes.txt');
    await editor.locator('.view-line', { hasText: 'something else' }).click();
    await session.page.keyboard.press('End');
    await lookUp(ARTICLE, 'Alan Turing'); // from the cache
    const frame = await encyclopediaFrame(session.page);
    await frame.getByRole('button', { name: 'Insert fact: Died' }).click({ timeout: 10_000 });
    await editor.locator('.view-line', { hasText: 'something else7 June 1954' }).waitFor({ timeout: 10_000 });
    await frame.getByRole('button', { name: 'Open as Markdown' }).click();
    const markdown = session.page.locator('.editor-instance .monaco-editor .view-lines', {
      hasText: '| Born | 23 June 1912 |',
    });
    await markdown.first().waitFor({ timeout: 10_000 });
  });

  it('a cached result shown while the service fails is marked as cached', async () => {
    await lookUp(ARTICLE, 'Alan Turing'); // from the cache
    const frame = await encyclopediaFrame(session.page);
    await frame.getByRole('heading', { name: 'Alan Turing', exact: true }).waitFor({ timeout: 10_000 });
    service().setFault('502:empty', { path: '/v1/axo/article', times: 5 });
    await clearNotifications(session.page);
    await frame.getByRole('button', { name: 'Refresh' }).click();
    await frame.getByText(/Cached result from .*could not be reached.*502/).waitFor({ timeout: 30_000 });
    await waitForToast(session.page, /cached result/i);
    service().reset();
  });

  it('Cancel on the progress notification aborts the request', async () => {
    service().setFault('stall-headers', { path: '/v1/axo/article' });
    await clearNotifications(session.page);
    await lookUp(ARTICLE, 'Ada Lovelace');
    await service().waitFor((r) => r.path === '/v1/axo/article', 10_000);
    await toastButton(session.page, /Opening the article/, 'Cancel').click({ timeout: 10_000 });
    const request = await service().waitFor((r) => r.path === '/v1/axo/article' && r.aborted, 10_000);
    assert.equal(request.query.title, 'Ada Lovelace');
  });

  it('an empty result says so', async () => {
    await clearNotifications(session.page);
    await lookUp(ASK, 'qwxz zzyzx');
    await waitForToast(session.page, /no answer to “qwxz zzyzx”/);
    const frame = await encyclopediaFrame(session.page);
    await frame
      .getByRole('status')
      .filter({ hasText: /no answer/ })
      .waitFor();
  });

  const faults: [string, RegExp, string?][] = [
    ['401', /rejected your encyclopedia API key/, 'Set Encyclopedia API Key'],
    ['403', /encyclopedia API key is not allowed/, 'Set Encyclopedia API Key'],
    ['404', /404 Not Found to the model .*may not know this model/, 'Change Model'],
    ['429', /rate limiting requests \(429/, 'Retry'],
    ['500:html', /service failed \(500 Internal Server Error\)/, 'Retry'],
    ['502:empty', /service failed \(502 Bad Gateway\)/, 'Retry'],
    ['bad-json', /not JSON/, 'Retry'],
    ['non-json', /not JSON \(text\/html.*It works!/, 'Retry'],
    ['stall-headers', /did not answer|timed out|took too long|within 6 s/i],
  ];
  for (const [fault, message, button] of faults) {
    it(`fault ${fault} gives a clear message`, async () => {
      await clearNotifications(session.page);
      await lookUp(ASK, `Ada Lovelace #fault:${fault}`);
      const toast = await waitForToast(session.page, message, 40_000);
      assert.doesNotMatch(toast, /chat API key|\[object Object\]/);
      if (button) {
        await notificationButton(session.page, message, button).waitFor({ timeout: 5_000 });
      }
      const frame = await encyclopediaFrame(session.page);
      await frame.getByRole('alert').filter({ hasText: message }).waitFor({ timeout: 5_000 });
    });
  }
});
