import { CONVERSATION_SETTINGS, type Conversation, type ConversationSetting, type SettingTimes } from './conversation';

/**
 * Changes one of a conversation's own settings and notes when: another window's save or refresh then takes it from
 * this copy unless that window changed it later (see mergeSettings). `undefined` removes the setting.
 */
export function changeSetting<K extends ConversationSetting>(
  conversation: Conversation,
  setting: K,
  value: Conversation[K] | undefined,
  now = Date.now(),
): void {
  setValue(conversation, setting, value);
  // Never back in time: a clock set back must not make a later change lose to an earlier one.
  const at = Math.max(now, (conversation.changedAt?.[setting] ?? 0) + 1);
  conversation.changedAt = { ...conversation.changedAt, [setting]: at };
}

/**
 * Into `result` (a merge that started from `mine`), each setting from the copy that changed it last: `theirs` where
 * it changed it later than `mine` did, else `mine`'s (a tie, or neither noted a time: this window's copy). A title
 * neither copy noted is `mine`'s unless it has none (a conversation's first prompt names it in one window).
 */
export function mergeSettings(result: Conversation, mine: Conversation, theirs: Conversation): void {
  const times: SettingTimes = { ...mine.changedAt };
  for (const setting of CONVERSATION_SETTINGS) {
    const theirTime = theirs.changedAt?.[setting];
    if (theirTime !== undefined && theirTime > (mine.changedAt?.[setting] ?? 0)) {
      copySetting(result, theirs, setting);
      times[setting] = theirTime;
    }
  }
  if (!result.title) {
    result.title = theirs.title;
  }
  if (Object.keys(times).length) {
    result.changedAt = times;
  } else {
    delete result.changedAt;
  }
}

/** Whether two copies differ in a setting the page shows. */
export function settingsDiffer(a: Conversation, b: Conversation): boolean {
  // Unpinned is absent or `false`; "Ground with AXO" absent is the setting's default, so `false` is a choice.
  return CONVERSATION_SETTINGS.some((setting) =>
    setting === 'pinned' ? (a.pinned === true) !== (b.pinned === true) : a[setting] !== b[setting],
  );
}

/** Takes `setting` from `from` into `into`, absent where `from` has none (its time is the caller's to take). */
export function copySetting<K extends ConversationSetting>(into: Conversation, from: Conversation, setting: K): void {
  setValue(into, setting, from[setting]);
}

function setValue<K extends ConversationSetting>(
  conversation: Conversation,
  setting: K,
  value: Conversation[K] | undefined,
): void {
  if (value === undefined) {
    delete conversation[setting];
  } else {
    conversation[setting] = value;
  }
}
