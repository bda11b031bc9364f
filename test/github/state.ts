/**
 * The stand-in's data: one repository's pull requests, issue comments, Deployments and their statuses,
 * and the JSON shapes GitHub's REST API returns for them (the fields clients read, with real names).
 */

export interface Identity {
  login: string;
  id: number;
  type: 'Bot' | 'User';
}

/** What GitHub Actions' GITHUB_TOKEN acts as. */
export const ACTIONS_BOT: Identity = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };

export interface PullRequest {
  number: number;
  state: 'open' | 'closed';
  headSha: string;
  headRef: string;
  /** `owner/repo` of the head; differs from the base repository for a fork. */
  headRepo: string;
  merged?: boolean;
}

export interface IssueComment {
  id: number;
  issueNumber: number;
  body: string;
  user: Identity;
  createdAt: string;
  updatedAt: string;
}

export interface Deployment {
  id: number;
  sha: string;
  ref: string;
  environment: string;
  description: string | null;
  task: string;
  payload: unknown;
  autoMerge: boolean;
  requiredContexts: string[] | undefined;
  transientEnvironment: boolean;
  productionEnvironment: boolean;
  creator: Identity;
  createdAt: string;
}

export interface DeploymentStatus {
  id: number;
  deploymentId: number;
  state: string;
  description: string;
  environment: string;
  logUrl: string;
  environmentUrl: string;
  creator: Identity;
  createdAt: string;
}

export class RepoState {
  readonly pulls: PullRequest[] = [];
  readonly comments: IssueComment[] = [];
  readonly deployments: Deployment[] = [];
  readonly statuses: DeploymentStatus[] = [];
  private nextId = 1000;
  /** A fixed, increasing clock: answers are reproducible and ordering by time is well defined. */
  private tick = Date.UTC(2026, 0, 1);

  constructor(
    readonly owner: string,
    readonly repo: string,
    readonly apiUrl: () => string,
    readonly serverUrl: string,
  ) {}

  id(): number {
    return ++this.nextId;
  }

  now(): string {
    this.tick += 1000;
    return new Date(this.tick).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  get fullName(): string {
    return `${this.owner}/${this.repo}`;
  }

  private repoApi(): string {
    return `${this.apiUrl()}/repos/${this.fullName}`;
  }

  userJson(user: Identity): object {
    const api = this.apiUrl();
    const path = user.login.replace('[bot]', '%5Bbot%5D');
    return {
      login: user.login,
      id: user.id,
      node_id: `MDM6Qm90${user.id}`,
      avatar_url: `https://avatars.githubusercontent.com/in/15368?v=4`,
      url: `${api}/users/${path}`,
      html_url: user.type === 'Bot' ? `${this.serverUrl}/apps/${user.login.replace('[bot]', '')}` : `${this.serverUrl}/${user.login}`,
      type: user.type,
      site_admin: false,
    };
  }

  commentJson(c: IssueComment): object {
    return {
      url: `${this.repoApi()}/issues/comments/${c.id}`,
      html_url: `${this.serverUrl}/${this.fullName}/pull/${c.issueNumber}#issuecomment-${c.id}`,
      issue_url: `${this.repoApi()}/issues/${c.issueNumber}`,
      id: c.id,
      node_id: `IC_kwDO${c.id}`,
      user: this.userJson(c.user),
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      author_association: c.user.type === 'Bot' ? 'NONE' : 'MEMBER',
      body: c.body,
      reactions: { url: `${this.repoApi()}/issues/comments/${c.id}/reactions`, total_count: 0 },
      performed_via_github_app: c.user.type === 'Bot' ? { id: 15368, slug: 'github-actions', name: 'GitHub Actions' } : null,
    };
  }

  pullJson(p: PullRequest): object {
    const branch = (repo: string, ref: string, sha: string) => ({
      label: `${repo.split('/')[0] ?? ''}:${ref}`,
      ref,
      sha,
      repo: { full_name: repo, name: repo.split('/')[1] ?? '', fork: repo !== this.fullName },
    });
    return {
      url: `${this.repoApi()}/pulls/${p.number}`,
      id: 500_000 + p.number,
      node_id: `PR_kwDO${p.number}`,
      html_url: `${this.serverUrl}/${this.fullName}/pull/${p.number}`,
      number: p.number,
      state: p.state,
      locked: false,
      title: `Pull request ${p.number}`,
      draft: false,
      merged_at: p.merged ? '2026-01-01T00:00:00Z' : null,
      head: branch(p.headRepo, p.headRef, p.headSha),
      base: branch(this.fullName, 'main', 'b'.repeat(40)),
    };
  }

  deploymentJson(d: Deployment): object {
    return {
      url: `${this.repoApi()}/deployments/${d.id}`,
      id: d.id,
      node_id: `DE_kwDO${d.id}`,
      sha: d.sha,
      ref: d.ref,
      task: d.task,
      payload: d.payload,
      original_environment: d.environment,
      environment: d.environment,
      description: d.description,
      creator: this.userJson(d.creator),
      created_at: d.createdAt,
      updated_at: d.createdAt,
      statuses_url: `${this.repoApi()}/deployments/${d.id}/statuses`,
      repository_url: this.repoApi(),
      transient_environment: d.transientEnvironment,
      production_environment: d.productionEnvironment,
      performed_via_github_app: null,
    };
  }

  statusJson(s: DeploymentStatus): object {
    return {
      url: `${this.repoApi()}/deployments/${s.deploymentId}/statuses/${s.id}`,
      id: s.id,
      node_id: `DES_kwDO${s.id}`,
      state: s.state,
      creator: this.userJson(s.creator),
      description: s.description,
      environment: s.environment,
      target_url: s.logUrl,
      created_at: s.createdAt,
      updated_at: s.createdAt,
      deployment_url: `${this.repoApi()}/deployments/${s.deploymentId}`,
      repository_url: this.repoApi(),
      environment_url: s.environmentUrl,
      log_url: s.logUrl,
      performed_via_github_app: null,
    };
  }
}
