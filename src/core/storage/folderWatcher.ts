import { mkdirSync, watch } from 'node:fs';

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
      mkdirSync(dir, { recursive: true });
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
