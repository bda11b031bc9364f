/**
 * The command inside a GitHub Actions `run:` step (GITHUB_ACTIONS=true): the same error annotations and
 * job summary the action writes, so a team moving from the action to the command loses nothing. Loaded only
 * there (it brings @actions/github), and written as workflow commands on the log stream, so that `-o json`
 * keeps stdout a single JSON document.
 */
import type { EngineResult } from '../engine/types.js';
import type { ClusterInfo } from '../pipeline.js';
import { annotationsFor, renderSummary, runInfoFromGitHub, writeSummary } from '../report/index.js';
import type { Settings } from '../settings.js';
import { inCommandTerms } from './messages.js';
import { workflowCommand } from './terminal.js';

export async function reportToGitHub(
  result: EngineResult,
  settings: Pick<Settings, 'waitFor' | 'failFast' | 'summary'>,
  cluster: Partial<ClusterInfo>,
  write: (text: string) => void,
): Promise<void> {
  for (const { message, title, file, startLine } of annotationsFor(result, settings.waitFor, { failFast: settings.failFast })) {
    write(`${workflowCommand('error', { title: inCommandTerms(title), file, line: startLine }, inCommandTerms(message))}\n`);
  }
  if (!settings.summary) return;
  const markdown = renderSummary(result, { server: cluster.server ?? '', context: cluster.context ?? '', waitFor: settings.waitFor, run: runInfoFromGitHub() });
  await writeSummary(markdown);
}
