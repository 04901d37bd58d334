import { randomBytes } from 'node:crypto';
import { useFakeService } from '../harness/fakeServiceHooks';
import { vsixPath } from '../harness/paths';
import { useWorkbench } from '../harness/session';
import { newConversation } from './chatHelpers';

/**
 * The keys of this process's chat suites: made once, so that suites run in one process (the test command runs the
 * chat group's files so) ask for the same service and the same workbench, and share them.
 */
const chatKey = `fkc_${randomBytes(12).toString('hex')}`;
const axoKey = `fke_${randomBytes(12).toString('hex')}`;

/**
 * A fake service with both keys and a workbench on it (both keys in the server's environment, a 10-s request
 * timeout, the Dark Modern theme, a `scratch.ts` in the workspace), shared with the other suites of the process that
 * use it. A suite that gets the workbench another left starts in a new, empty conversation, as a new workbench would.
 */
export function useChatGroup(name: string) {
  const service = useFakeService({ chatKey, axoKey });
  const session = useWorkbench(name, () => ({
    vsix: vsixPath,
    baseUrl: service().url,
    env: { ALPHA_API_KEY: chatKey, AXO_API_KEY: axoKey },
    // "Dark Modern", not "Default Dark Modern", which VS Code rewrites so (a rewritten settings file is not shared).
    settings: { 'alphaAxo.requestTimeoutSeconds': 10, 'workbench.colorTheme': 'Dark Modern' },
    workspaceFiles: { 'scratch.ts': '// scratch\n' },
  }));
  before(async () => {
    if (session.reused) {
      await newConversation(session.page);
    }
  });
  return { service, session, chatKey, axoKey };
}
