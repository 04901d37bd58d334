import type * as vscode from 'vscode';
import type { AlphaClient } from '../core/service/alphaClient';
import type { AxoClient } from '../core/service/axoClient';
import type { EncyclopediaStore } from '../core/encyclopedia/encyclopediaStore';
import type { HttpClient } from '../core/net/http';
import type { SecretScrubber } from '../core/service/secretScrubber';
import type { HostLogger } from './logger';
import type { SecretStore } from './secretStore';
import type { Settings } from './settings';
import type { WorkspaceInstructions } from './workspaceInstructions';

/** What activate() builds once and hands to every feature's register function. */
export interface Services {
  context: vscode.ExtensionContext;
  log: HostLogger;
  /** The session's keys, removed from everything the service sends back and from every log line. */
  scrubber: SecretScrubber;
  secrets: SecretStore;
  settings: Settings;
  http: HttpClient;
  alpha: AlphaClient;
  axo: AxoClient;
  /**
   * The encyclopedia's results (cache, persisted snapshot, looked-up terms): the encyclopedia view and hovers show
   * them, and a grounded chat request takes the cached facts of the articles its question names.
   */
  encyclopedia: EncyclopediaStore;
  /** The repository's instructions for ALPHA, kept current; every path to ALPHA sends them (chat, `@alpha`, assist). */
  instructions: WorkspaceInstructions;
}
