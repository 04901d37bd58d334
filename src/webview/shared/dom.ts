import * as l10n from '@vscode/l10n';
import { locale } from './l10n';

/** Attributes and handlers of an element built with `h`. */
export interface Props {
  [name: string]: string | number | boolean | undefined | ((event: Event) => void);
}

type Child = Node | string | undefined | false | null;

/** Builds an element; `on*` props become listeners, `false`/`undefined` props are skipped; text is never HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') {
      el.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (value === true) {
      el.setAttribute(name, '');
    } else if (value !== undefined && value !== false) {
      el.setAttribute(name, String(value));
    }
  }
  for (const child of children) {
    if (child !== undefined && child !== null && child !== false) {
      el.append(child);
    }
  }
  return el;
}

/** Shows `text` in `element` and as its tooltip; an element that shows it already is left as it is (no change drawn). */
export function setTextAndTooltip(element: HTMLElement, text: string): void {
  if (element.textContent !== text || element.title !== text) {
    element.textContent = text;
    element.title = text;
  }
}

/** A codicon (decorative). */
export function icon(name: string, spin = false): HTMLElement {
  return h('span', { class: `codicon codicon-${name}${spin ? ' codicon-modifier-spin' : ''}`, 'aria-hidden': 'true' });
}

/** A button showing only an icon, named for assistive technology and with a tooltip. */
export function iconButton(label: string, iconName: string, onClick: () => void, extra: Props = {}): HTMLButtonElement {
  return h(
    'button',
    { type: 'button', class: 'icon-button', 'aria-label': label, title: label, onClick, ...extra },
    icon(iconName),
  );
}

/** A button with an icon and a visible label. */
export function textButton(label: string, iconName: string, onClick: () => void, extra: Props = {}): HTMLButtonElement {
  return h('button', { type: 'button', class: 'text-button', onClick, ...extra }, icon(iconName), h('span', {}, label));
}

/** "5 minutes ago", "yesterday", … computed when called (the page renders it on demand, never on a timer). */
export function relativeTime(then: number, now = Date.now()): string {
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 45) {
    return l10n.t('just now');
  }
  const rtf = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) {
    return rtf.format(-minutes, 'minute');
  }
  const hours = Math.round(minutes / 60);
  if (hours < 24) {
    return rtf.format(-hours, 'hour');
  }
  const days = Math.round(hours / 24);
  return days < 30 ? rtf.format(-days, 'day') : new Date(then).toLocaleDateString(locale());
}

/**
 * The formats of `clockTime` for a locale, made once: each `toLocaleString` with options makes a new one, a tenth of
 * a millisecond that a conversation of thousands of messages paid for each.
 */
let clockFormats: { locale: string | undefined; time: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat } | undefined;

/** A message's time of day, as a fixed label. */
export function clockTime(ms: number): string {
  const tag = locale();
  const formats =
    clockFormats && clockFormats.locale === tag
      ? clockFormats
      : (clockFormats = {
          locale: tag,
          time: new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit' }),
          dateTime: new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }),
        });
  const date = new Date(ms);
  const sameDay = new Date().toDateString() === date.toDateString();
  return (sameDay ? formats.time : formats.dateTime).format(date);
}
