import * as vscode from 'vscode';
import { AlphaClient } from './core/service/alphaClient';
import { AxoClient } from './core/service/axoClient';
import { HttpClient } from './core/net/http';
import * as l10n from '@vscode/l10n';
import { SecretScrubber } from './core/service/secretScrubber';
import { registerAssist, registerProposalReview } from './features/assist/registerAssist';
import { registerChat } from './features/chat/registerChat';
import { ChatToolboxImpl, chatToolsHost } from './features/chat/tools/chatToolbox';
import { createEncyclopediaStore, registerEncyclopedia } from './features/encyclopedia/registerEncyclopedia';
import { registerKeys } from './features/keys/registerKeys';
import { registerNativeChat } from './features/nativeChat/registerNativeChat';
import { StatusBar } from './features/status/statusBar';
import { toolLookups } from './features/tools/axoLanguageModelTools';
import { registerTools } from './features/tools/registerTools';
import { watchIgnoredSettings } from './host/ignoredSettingsNotice';
import { KeyRoutePrompt } from './host/keyRoutePrompt';
import { HostLogger } from './host/logger';
import { tightenStorageOnce } from './host/privateStorage';
import { SecretStore } from './host/secretStore';
import type { Services } from './host/services';
import { Settings } from './host/settings';
import { WorkspaceInstructions } from './host/workspaceInstructions';

/** Composition root: builds the services once and hands them to each feature. Does no network work. */
export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const cpu = process.cpuUsage();
  // The core writes its messages in English through @vscode/l10n; with VS Code's bundle (none under English) they
  // come out in the user's language.
  l10n.config({ contents: vscode.l10n.bundle ?? {} });
  // One scrubber for the session: the logger, the HTTP client and the key commands share what it knows.
  const scrubber = new SecretScrubber();
  const log = new HostLogger(scrubber);
  const secrets = new SecretStore(context.secrets);
  const settings = new Settings();
  // Keys go over plain http to another computer, or over TLS that is not checked, only as the user agreed.
  const keyGate = new KeyRoutePrompt(context.globalState, settings).gate;
  const http = new HttpClient(() => settings.http, log, { scrubber, keyGate });
  const serviceContext = {
    http,
    baseUrl: () => settings.baseUrl,
    keys: (kind: 'chat' | 'encyclopedia') => secrets.get(kind),
    log,
  };
  const axo = new AxoClient(serviceContext);
  const services: Services = {
    context,
    log,
    scrubber,
    secrets,
    settings,
    http,
    alpha: new AlphaClient(serviceContext, () => settings.timeoutMs),
    axo,
    encyclopedia: createEncyclopediaStore(context, axo, log),
    instructions: new WorkspaceInstructions(settings, log),
  };
  context.subscriptions.push(log, secrets, { dispose: () => void http.dispose() }, services.instructions);
  context.subscriptions.push(tightenStorageOnce(context, log), watchIgnoredSettings(context, log));

  registerKeys(services);
  // The chat's edit tool proposes into the same reviewed diff as the assistance commands.
  const review = registerProposalReview(services);
  const toolbox = new ChatToolboxImpl({ lookups: toolLookups(services), review, log });
  context.subscriptions.push(toolbox);
  const chat = registerChat(services, chatToolsHost(toolbox));
  registerEncyclopedia(services);
  // Assistance hands its answers to the chat through the chat's own entry, not the public alpha.chat.ask.
  registerAssist(services, chat.entry, review);
  registerNativeChat(services);
  registerTools(services);
  const statusBar = new StatusBar(services);
  context.subscriptions.push(
    statusBar,
    chat.onDidChangeStreaming((streaming) => statusBar.setStreaming(streaming)),
  );

  // Nothing is returned: exports would hand the key store to every other extension.
  // Wall time and the CPU time spent (a busy machine can deschedule the host mid-activation: wall time alone varies).
  const spent = process.cpuUsage(cpu);
  log.info(
    `Activated in ${(performance.now() - started).toFixed(1)} ms (CPU ${((spent.user + spent.system) / 1000).toFixed(1)} ms).`,
  );
}

/** Nothing to do: every resource is owned by context.subscriptions. */
export function deactivate(): void {
  // Intentionally empty.
}
