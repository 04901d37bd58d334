import type * as vscode from 'vscode';
import type { AlphaClient } from '../core/alphaClient';
import type { AxoClient } from '../core/axoClient';
import type { HttpClient } from '../core/http';
import type { HostLogger } from './logger';
import type { SecretStore } from './secretStore';
import type { Settings } from './settings';

/** What activate() builds once and hands to every feature's register function. */
export interface Services {
  context: vscode.ExtensionContext;
  log: HostLogger;
  secrets: SecretStore;
  settings: Settings;
  http: HttpClient;
  alpha: AlphaClient;
  axo: AxoClient;
}
