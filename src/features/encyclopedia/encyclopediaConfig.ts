import * as vscode from 'vscode';
import { userValue } from '../../host/settings';

/** What hovers may do: nothing, show looked-up terms, or also fetch the hovered word. */
export type HoverLookups = 'off' | 'lookedUp' | 'always';

/** One encyclopedia model offered by the Ask box. */
export interface ModelOption {
  id: string;
  label: string;
  description?: string;
}

function defaultModels(): ModelOption[] {
  return [
    {
      id: 'axo',
      label: 'AXO',
      description: vscode.l10n.t('Full open knowledge: encyclopedia, structured data, media, current events'),
    },
    { id: 'axo.1', label: 'AXO.1', description: vscode.l10n.t('Fast factual lookup with citations') },
    { id: 'axo.2', label: 'AXO.2', description: vscode.l10n.t('Articles, structured facts and matching media') },
  ];
}

const MAX_TTL_HOURS = 720;

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('alphaAxo');
}

/** `alphaAxo.encyclopedia.hoverLookups` from the user's settings, with anything unknown read as the default. */
export function hoverLookups(): HoverLookups {
  const value = userValue<string>('encyclopedia.hoverLookups');
  return value === 'off' || value === 'always' ? value : 'lookedUp';
}

/** `alphaAxo.encyclopedia.cacheTtlHours` from the user's settings, in milliseconds, within 0–720 hours. */
export function cacheTtlMs(): number {
  const hours = Number(userValue<number>('encyclopedia.cacheTtlHours') ?? 24);
  const clamped = Number.isFinite(hours) ? Math.min(MAX_TTL_HOURS, Math.max(0, hours)) : 24;
  return clamped * 60 * 60 * 1000;
}

/**
 * The models from `alphaAxo.encyclopedia.models` in the user's settings (invalid items skipped), plus `current` if it
 * is not listed.
 */
export function encyclopediaModels(current?: string): ModelOption[] {
  const raw = userValue<unknown>('encyclopedia.models');
  const models: ModelOption[] = [];
  for (const item of Array.isArray(raw) ? raw : []) {
    const o = item as Partial<ModelOption> | null;
    const id = typeof o?.id === 'string' ? o.id.trim() : '';
    if (id && !models.some((m) => m.id === id)) {
      const label = typeof o?.label === 'string' && o.label.trim() ? o.label.trim() : id;
      models.push({ id, label, description: typeof o?.description === 'string' ? o.description : undefined });
    }
  }
  const list = models.length ? models : defaultModels();
  if (current && !list.some((m) => m.id === current)) {
    list.push({ id: current, label: current, description: vscode.l10n.t('From alphaAxo.encyclopedia.model') });
  }
  return list;
}

/** The label of a model identifier ("axo.1" → "AXO.1"), or the identifier itself. */
export function modelLabel(id: string): string {
  return encyclopediaModels().find((m) => m.id === id)?.label ?? id;
}

/** Remembers the chosen model in the user settings, so the next Ask uses it too. */
export async function saveEncyclopediaModel(id: string): Promise<void> {
  await config().update('encyclopedia.model', id, vscode.ConfigurationTarget.Global);
}
