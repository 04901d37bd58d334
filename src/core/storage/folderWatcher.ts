import { watch } from 'node:fs';
import { makePrivateDirSync } from './privateFiles';

/** Something to stop. */
export interface Stoppable {
  dispose(): void;
}

/** Tells when files in a folder change; injectable so tests (and hosts without file events) can do without. */
export interface FolderWatcher {
  /** Calls `onChange` with the name of a file that changed (undefined when the platform does not say which). */
  watch(dir: string, onChange: (name: string | undefined) => void, onError: (error: unknown) => void): Stoppable;
}

/** Watches with `fs.watch` (inotify, FSEvents, ReadDirectoryChangesW): other windows' writes arrive in milliseconds. */
export const nodeFolderWatcher: FolderWatcher = {
  watch(dir, onChange, onError) {
    try {
      makePrivateDirSync(dir);
      const watcher = watch(dir, (_event, name) => onChange(name ?? undefined));
      watcher.on('error', onError);
      return { dispose: () => watcher.close() };
    } catch (error) {
      onError(error);
      return { dispose: () => undefined };
    }
  },
};

/** Watches nothing: changes are then seen when the host asks (`ConversationStore.checkForChanges`). */
export const noFolderWatcher: FolderWatcher = {
  watch: () => ({ dispose: () => undefined }),
};

/**
 * Watches `dir` and reports the names that changed once a burst of events is over (`settleMs` without one): a
 * write comes as a temp file, a rename and an index. Names `accept` refuses are ignored; `onChanges` gets
 * undefined when the platform did not say which file changed (look at all of them then).
 */
export function watchSettled(
  watcher: FolderWatcher,
  dir: string,
  options: {
    settleMs: number;
    accept(name: string): boolean;
    onChanges(names: ReadonlySet<string> | undefined): void;
    onError(error: unknown): void;
  },
): Stoppable {
  let names = new Set<string>();
  let unnamed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watching = watcher.watch(
    dir,
    (name) => {
      if (name !== undefined && !options.accept(name)) {
        return;
      }
      if (name === undefined) {
        unnamed = true;
      } else {
        names.add(name);
      }
      clearTimeout(timer);
      timer = setTimeout(() => {
        const changed = unnamed ? undefined : names;
        names = new Set();
        unnamed = false;
        options.onChanges(changed);
      }, options.settleMs);
    },
    options.onError,
  );
  return {
    dispose: () => {
      clearTimeout(timer);
      watching.dispose();
    },
  };
}
