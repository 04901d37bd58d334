import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { AlphaClient } from '../../../src/core/service/alphaClient';
import { AxoClient } from '../../../src/core/service/axoClient';
import { EncyclopediaStore } from '../../../src/core/encyclopedia/encyclopediaStore';
import { HttpClient } from '../../../src/core/net/http';
import { SecretScrubber } from '../../../src/core/service/secretScrubber';
import { HostLogger } from '../../../src/host/logger';
import type { Services } from '../../../src/host/services';
import { Settings } from '../../../src/host/settings';
import { AlphaParticipant } from '../../../src/features/nativeChat/alphaParticipant';
import { AxoParticipant } from '../../../src/features/nativeChat/axoParticipant';
import type {
  ChatContext,
  ChatRequest,
  ChatResponseStream,
  ChatResult,
} from '../../../src/features/nativeChat/chatApi';
import { chatReply } from '../../fakeService/chatContent';
import { startFakeService, type FakeService, type RecordedRequest } from '../../fakeService/fakeService';

/*
 * The @alpha and @axo handlers called as VS Code's chat view calls them (a request, the history, a response stream,
 * a token), against the fake service. VS Code's chat view runs third-party participants only with a model selected
 * (see the README, "VS Code's own chat"), so this is where every path of the handlers is checked, whatever the chat
 * view allows.
 */

/** One part a handler wrote to the response stream. */
type Part =
  | { kind: 'markdown'; value: string }
  | { kind: 'progress'; value: string }
  | { kind: 'reference'; value: vscode.Uri | vscode.Location }
  | { kind: 'button'; value: vscode.Command };

/** A response stream that records what the handler wrote, in order. */
function recordingStream(): { parts: Part[]; stream: ChatResponseStream } {
  const parts: Part[] = [];
  const stream: ChatResponseStream = {
    markdown: (value) => parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value }),
    progress: (value) => parts.push({ kind: 'progress', value }),
    reference: (value) => parts.push({ kind: 'reference', value }),
    button: (value) => parts.push({ kind: 'button', value }),
  };
  return { parts, stream };
}

const markdownOf = (parts: Part[]): string => parts.map((p) => (p.kind === 'markdown' ? p.value : '')).join('');
const ofKind = <K extends Part['kind']>(parts: Part[], kind: K) =>
  parts.filter((p): p is Extract<Part, { kind: K }> => p.kind === kind);
const request = (prompt: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  prompt,
  command: undefined,
  references: [],
  ...extra,
});
const noHistory: ChatContext = { history: [] };

function messagesOf(recorded: RecordedRequest): { role: string; content: string }[] {
  return (recorded.body as { messages: { role: string; content: string }[] }).messages;
}

describe('the @alpha and @axo handlers, called with a request', () => {
  let fake: FakeService | undefined;
  let keys: { chat?: string; encyclopedia?: string } = {};
  const scrubber = new SecretScrubber();
  const log = new HostLogger(scrubber, 'ALPHA & AXO (handler tests)');
  const settings = new Settings();
  const http = new HttpClient(() => settings.http, log, { scrubber });
  let alpha: AlphaParticipant;
  let axo: AxoParticipant;
  let encyclopedia: EncyclopediaStore;

  function service(): FakeService {
    assert.ok(fake, 'the fake service is not running');
    return fake;
  }

  before(async () => {
    const started = await startFakeService({ tokenDelayMs: 2 });
    fake = started;
    const context = {
      http,
      baseUrl: () => started.url,
      keys: async (kind: 'chat' | 'encyclopedia') => keys[kind],
      log,
    };
    const axoClient = new AxoClient(context);
    encyclopedia = new EncyclopediaStore({ client: axoClient, ttlMs: () => 3_600_000 });
    const services = {
      log,
      settings,
      http,
      alpha: new AlphaClient(context, () => 10_000),
      axo: axoClient,
      encyclopedia,
      instructions: { current: undefined },
    } as unknown as Services;
    alpha = new AlphaParticipant(services);
    axo = new AxoParticipant(services);
  });

  beforeEach(async () => {
    fake?.reset();
    keys = { chat: fake?.chatKey, encyclopedia: fake?.axoKey };
    // No active editor, so a slash command finds no code of its own: the Output panel's log counts as one, and an
    // editor left dirty stays open unless reverted.
    await vscode.commands.executeCommand('workbench.action.closePanel');
    for (let i = 0; i < 10 && vscode.window.activeTextEditor; i++) {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    assert.equal(vscode.window.activeTextEditor, undefined, 'an editor is still active');
  });

  after(async () => {
    encyclopedia.dispose();
    await http.dispose();
    log.dispose();
    await fake?.close();
  });

  async function ask(
    handler: AlphaParticipant | AxoParticipant,
    req: ChatRequest,
    context = noHistory,
    token = new vscode.CancellationTokenSource().token,
  ): Promise<{ parts: Part[]; result: ChatResult }> {
    const { parts, stream } = recordingStream();
    const result = await handler.handle(req, context, stream, token);
    return { parts, result };
  }

  it('@alpha streams the reply into the chat as Markdown pieces, after a progress line', async () => {
    const prompt = 'Say hello #long:3000';
    const { parts, result } = await ask(alpha, request(prompt));
    const sent = await service().waitFor((r) => r.path === '/v1/alpha' && r.completed);
    assert.deepEqual(messagesOf(sent), [{ role: 'user', content: prompt }]);
    assert.equal(sent.keyKind, 'chat');
    assert.deepEqual(parts[0], { kind: 'progress', value: 'Asking ALPHA…' });
    assert.equal(markdownOf(parts), chatReply(messagesOf(sent)));
    assert.ok(ofKind(parts, 'markdown').length > 1, 'the reply arrived as one piece, not streamed');
    assert.equal(result.errorDetails, undefined);
    assert.equal(result.metadata?.sentPrompt, prompt);
  });

  it('@alpha sends its earlier turns as the conversation, the sent prompt of each', async () => {
    const context: ChatContext = {
      history: [
        { prompt: 'first question', participant: 'alpha-axo.alpha' },
        {
          participant: 'alpha-axo.alpha',
          response: [{ value: new vscode.MarkdownString('first answer') }],
          result: { metadata: { sentPrompt: 'first question, with its code' } },
        },
      ],
    };
    const { parts } = await ask(alpha, request('and then? #echo'), context);
    const sent = await service().waitFor((r) => r.path === '/v1/alpha' && r.completed);
    assert.deepEqual(messagesOf(sent), [
      { role: 'user', content: 'first question, with its code' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'and then? #echo' },
    ]);
    assert.equal(markdownOf(parts), 'and then? #echo');
  });

  it('@alpha /explain sends the code of an attached #selection', async () => {
    const code = 'function add(a: number, b: number) {\n  return a + b;\n}\n';
    const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: code });
    const location = new vscode.Location(document.uri, new vscode.Range(0, 0, 2, 1));
    const { result } = await ask(
      alpha,
      request('why is this useful?', { command: 'explain', references: [{ id: 'vscode.selection', value: location }] }),
    );
    const sent = await service().waitFor((r) => r.path === '/v1/alpha' && r.completed);
    const last = messagesOf(sent).at(-1);
    assert.equal(last?.role, 'user');
    assert.ok(last?.content.includes('return a + b;'), `the code is not in the prompt: ${last?.content}`);
    assert.ok(last?.content.includes('why is this useful?'));
    assert.equal(result.metadata?.command, 'explain');
  });

  it('@alpha /ground asks AXO first, sends its answer with numbered sources, and gives them as references', async () => {
    const { parts, result } = await ask(alpha, request('Who was Alan Turing?', { command: 'ground' }));
    const sent = await service().waitFor((r) => r.path === '/v1/alpha' && r.completed);
    const asked = service().requests.find((r) => r.path === '/v1/axo/ask');
    assert.ok(asked && asked.id < sent.id, 'AXO was asked before ALPHA');
    const last = messagesOf(sent).at(-1)?.content ?? '';
    assert.match(last, /numbered sources/i);
    assert.match(last, /English mathematician/);
    assert.match(last, /\[1\] Alan Turing <https:\/\/axo\.example\/wiki\/Alan_Turing>/);
    assert.ok(last.endsWith('Who was Alan Turing?'));
    const references = ofKind(parts, 'reference').map((r) => String(r.value));
    assert.ok(references.includes('https://axo.example/wiki/Alan_Turing'), references.join(', '));
    // Every source is also listed after the answer, numbered as the answer cites them.
    assert.match(
      markdownOf(parts),
      /\*\*Sources\*\*\n\n1\. \[Alan Turing\]\(<https:\/\/axo\.example\/wiki\/Alan_Turing>\)\n/,
    );
    assert.equal(result.errorDetails, undefined);
  });

  it('@alpha /ground answers without sources, and says so, when AXO refuses the key', async () => {
    service().setFault('401', { path: '/v1/axo/ask', times: 3 });
    const { parts, result } = await ask(alpha, request('Who was Alan Turing?', { command: 'ground' }));
    await service().waitFor((r) => r.path === '/v1/alpha' && r.completed);
    assert.match(markdownOf(parts), /Answered without sources:/);
    assert.equal(service().requests.filter((r) => r.path === '/v1/axo/ask').length, 1, 'no retry');
    assert.equal(ofKind(parts, 'reference').length, 0);
    assert.equal(result.errorDetails, undefined);
  });

  it('@alpha /ground sends the cached facts of an article the question names, from the cache, also when AXO fails', async () => {
    await encyclopedia.lookup({ kind: 'article', title: 'Alan Turing' });
    service().setFault('401', { path: '/v1/axo/ask', times: 3 });
    const start = service().requests.length;
    const { parts, result } = await ask(alpha, request('When was alan  turing born?', { command: 'ground' }));
    const sent = await service().waitFor((r) => r.path === '/v1/alpha' && r.completed);
    const last = messagesOf(sent).at(-1)?.content ?? '';
    assert.match(last, /\n\[1\] Alan Turing\n {4}- Born: 23 June 1912\n/);
    assert.match(markdownOf(parts), /Answered with cached facts only:[\s\S]*Cached facts of Alan Turing went along/);
    // A source without a web address cannot be a reference (it takes a URI): the Sources block lists it.
    assert.equal(ofKind(parts, 'reference').length, 0);
    assert.match(markdownOf(parts), /\*\*Sources\*\*\n\n1\. Alan Turing\n$/);
    const article = service()
      .requests.slice(start)
      .filter((r) => r.path === '/v1/axo/article');
    assert.equal(article.length, 0, 'the facts came from the cache');
    assert.equal(result.errorDetails, undefined);
  });

  it('@alpha /fix without code asks for a selection and sends nothing', async () => {
    const { parts, result } = await ask(alpha, request('', { command: 'fix' }));
    assert.match(markdownOf(parts), /Select code in an editor/);
    assert.equal(result.errorDetails, undefined);
    assert.equal(service().requests.length, 0);
  });

  it('@alpha without a Chat API key fails with a sentence and the Set Chat API Key button', async () => {
    keys = { encyclopedia: fake?.axoKey };
    const { parts, result } = await ask(alpha, request('hello'));
    assert.match(result.errorDetails?.message ?? '', /Chat API key/i);
    assert.deepEqual(
      ofKind(parts, 'button').map((b) => b.value.command),
      ['alpha.setApiKey'],
    );
    assert.equal(service().requests.length, 0);
  });

  it('@alpha stops the request when the chat cancels it', async () => {
    const cts = new vscode.CancellationTokenSource();
    const { parts, stream } = recordingStream();
    const original = stream.markdown;
    stream.markdown = (value) => {
      original(value);
      cts.cancel();
    };
    const result = await alpha.handle(request('A long one. #long:400000'), noHistory, stream, cts.token);
    const sent = await service().waitFor((r) => r.path === '/v1/alpha' && r.aborted, 10_000);
    assert.equal(sent.completed, false);
    assert.ok(markdownOf(parts).length < 400_000);
    assert.equal(result.errorDetails, undefined, 'a cancelled turn is not an error');
    cts.dispose();
  });

  it('@axo answers with the text, a reference per citation and a numbered Sources list', async () => {
    const { parts, result } = await ask(axo, request('Who was Alan Turing?'));
    const sent = await service().waitFor((r) => r.path.startsWith('/v1/axo/ask') && r.completed);
    assert.equal(sent.keyKind, 'axo');
    assert.match(ofKind(parts, 'progress')[0]?.value ?? '', /Looking it up in AXO/);
    const text = markdownOf(parts);
    assert.match(text, /Alan Turing was an English mathematician/);
    const references = ofKind(parts, 'reference').map((r) => String(r.value));
    assert.ok(references.length > 0, 'no references');
    for (const url of references) {
      assert.match(url, /^https?:\/\//);
      assert.ok(text.includes(url), `the Sources list does not link ${url}`);
    }
    assert.match(text, /\*\*Sources\*\*\n\n1\. \[/);
    assert.equal(result.metadata?.citations, references.length);
  });

  it('@axo with no question shows an example and sends nothing', async () => {
    const { parts } = await ask(axo, request('   '));
    assert.match(markdownOf(parts), /@axo Who was Alan Turing\?/);
    assert.equal(service().requests.length, 0);
  });

  it('@axo with a rejected key fails with a sentence and the Set Encyclopedia API Key button', async () => {
    service().setFault('401', { path: '/v1/axo' });
    const { parts, result } = await ask(axo, request('Who was Alan Turing?'));
    assert.ok(result.errorDetails?.message, 'no error message');
    assert.doesNotMatch(result.errorDetails.message, /\[object|Error:/);
    assert.deepEqual(
      ofKind(parts, 'button').map((b) => b.value.command),
      ['axo.setApiKey'],
    );
  });
});
