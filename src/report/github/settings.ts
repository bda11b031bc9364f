/**
 * The inputs of the GitHub reports (`pr-comment`, `github-token`, `deployment-environment`,
 * `deployment-url`): their vocabulary, defaults and validation, in one place.
 */
import { InputError, type InputReader } from '../../inputs.js';

export type PrCommentMode = 'off' | 'always' | 'on-failure';

/** The settings slice of the GitHub reports (the action inputs `pr-comment`, `github-token`, `deployment-*`). */
export interface GitHubReportSettings {
  prComment: PrCommentMode;
  /** Never printed; registered as a secret when the client is made. */
  githubToken: string;
  /** '' for no Deployment. */
  deploymentEnvironment: string;
  /** '' for none. */
  deploymentUrl: string;
}

const PR_COMMENT_MODES: readonly PrCommentMode[] = ['off', 'always', 'on-failure'];

/** The literal defaults of action.yml for these inputs, applied when unset (the runner fills them in; tests
 *  may not). `github-token`, `report-matrix` and `report-job-id` default to expressions the runner evaluates. */
export const GITHUB_REPORT_INPUT_DEFAULTS = { 'pr-comment': 'off' } as const;

/**
 * Reads the inputs of the GitHub reports (action.yml fills in the defaults; tests may not). Throws
 * `InputError` naming the input for a bad value.
 */
export function parseGitHubReportSettings(read: InputReader): GitHubReportSettings {
  const prComment = (read('pr-comment').trim() || GITHUB_REPORT_INPUT_DEFAULTS['pr-comment']) as PrCommentMode;
  if (!PR_COMMENT_MODES.includes(prComment)) {
    throw new InputError('pr-comment', `Input "pr-comment" is "${prComment}": expected off, always or on-failure, like pr-comment: on-failure.`);
  }
  const deploymentEnvironment = read('deployment-environment').trim();
  const deploymentUrl = read('deployment-url').trim();
  if (deploymentUrl !== '') {
    let url: URL | undefined;
    try {
      url = new URL(deploymentUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      throw new InputError(
        'deployment-url',
        `Input "deployment-url" is "${deploymentUrl}": expected an http(s) URL, like deployment-url: https://staging.example.com.`,
      );
    }
    if (deploymentEnvironment === '') {
      throw new InputError(
        'deployment-url',
        'Input "deployment-url" is set but "deployment-environment" is empty: name the environment too, like deployment-environment: staging.',
      );
    }
  }
  return { prComment, githubToken: read('github-token').trim(), deploymentEnvironment, deploymentUrl };
}
